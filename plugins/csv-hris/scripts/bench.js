// Measures the connector's extract on a generated export of N rows (default 1,000,000): wall time,
// CPU time and the peak RSS of the process. Build first, then run from the repository root:
//   npx tsc -b plugins/csv-hris && node plugins/csv-hris/scripts/bench.js [ROWS] [--validate]
// or, for the kernel's view of peak RSS: /usr/bin/time -v node plugins/csv-hris/scripts/bench.js
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@oaakit/core';
import { csvHrisConfigSchema, extractEmployees } from '../dist/index.js';
import { generateCsv } from '../dist/bench/generate-csv.js';

const rows = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'csv-hris-bench-'));
const file = join(dir, 'employees.csv');
const seconds = (ms) => Number((ms / 1000).toFixed(2));
const mb = (kb) => Math.round(kb / 1024);
try {
  await generateCsv(file, rows);
  const rssBefore = process.resourceUsage().maxRSS;
  let ticks = 0;
  const ctx = {
    config: csvHrisConfigSchema.parse({ files: [file] }),
    signal: new AbortController().signal,
    progress: { start() {}, tick: (n = 1) => void (ticks += n) },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const payload = await extractEmployees(ctx);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const report = {
    node: process.version,
    rows,
    fileMB: Math.round(statSync(file).size / 2 ** 20),
    employees: payload.employees.length,
    groups: payload.groups.length,
    withManager: payload.employees.filter((e) => e.managers?.length).length,
    rowsReported: ticks,
    extractSeconds: seconds(wall),
    // CPU time is steadier than wall time on a shared machine; GC threads can push it above wall time.
    extractCpuSeconds: seconds((cpu.user + cpu.system) / 1000),
    maxRssMBBeforeExtract: mb(rssBefore),
    maxRssMB: mb(process.resourceUsage().maxRSS),
  };
  if (process.argv.includes('--validate')) {
    const t1 = performance.now();
    const { errors } = validate('hris', payload);
    Object.assign(report, {
      validateSeconds: seconds(performance.now() - t1),
      validateErrors: errors.length,
      maxRssMBAfterValidate: mb(process.resourceUsage().maxRSS),
    });
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
