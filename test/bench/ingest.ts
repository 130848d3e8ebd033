#!/usr/bin/env node
/**
 * The emulator ingest benchmark: `npm run bench:ingest -- --users N [--db FILE]`.
 * Starts an emulator in this process (a database file in a temporary directory by default), builds
 * bench-app-N, pushes it with the client, and prints one JSON line with the MB/s of JSON ingested
 * and the peak RSS of the process (emulator and client together: the client builds, serializes and
 * gzips the payload in the same process). `cpu_s` is the process's CPU time (user + system) during
 * the push, the steadier figure when other work shares the machine.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '@oaakit/emulator';
import { buildBenchApp } from './bench-app.js';
import { pushToService } from './push-service.js';

const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, db: { type: 'string' } },
});
const n = Number(values.users);
if (!Number.isSafeInteger(n) || n < 1)
  throw new Error(`--users must be a positive whole number, got ${values.users}`);

async function main() {
  const dir = values.db ? undefined : await mkdtemp(join(tmpdir(), 'oaa-ingest-'));
  const dbPath = values.db ?? join(dir!, 'emulator.db');
  const key = `oaa_bench_${randomBytes(12).toString('hex')}`;
  const emulator = await startEmulator({ port: 0, dbPath, apiKeys: [{ key, role: 'admin' }] });
  try {
    const payload = buildBenchApp(n, 'streamed');
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    const pushed = await pushToService(emulator.url, key, payload, false);
    const push_s = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    const result = {
      n,
      db: values.db ? dbPath : 'temporary file',
      push_s: Math.round(push_s * 1000) / 1000,
      json_bytes: pushed.jsonBytes,
      gzip_bytes: pushed.gzipBytes,
      json_mb_per_s: Math.round((pushed.jsonBytes / 1e6 / push_s) * 10) / 10,
      cpu_s: Math.round((cpu.user + cpu.system) / 1000) / 1000,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      push_mode: pushed.mode,
      warnings: pushed.warnings,
      node: process.version,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await emulator.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`ingest bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
