/**
 * One push must not exhaust the emulator's memory, measured: full-size bombs (gzip CSV and JSON that
 * inflate to about 500 MB each, a 40 MB CSV body, multipart uploads of such JSON), all sent at once
 * to an emulator process (the built `oaa-emulator` bin), are each refused with 400 naming their
 * field, the emulator answers afterwards, and its peak resident memory (VmHWM, from /proc: Linux
 * only) stays under 600 MB. Before the pushes were bounded, the first of them alone made it abort
 * with V8 out of memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRowsBomb, jsonBomb } from './private-test-helpers/bombs.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const PEAK_RSS_LIMIT_MB = 600;
const KEY = `oaa_memtest_${randomBytes(12).toString('hex')}`;

/** The peak resident set size of process `pid`, in MB. */
async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb[1]) / 1024;
}

describe.runIf(process.platform === 'linux')('emulator memory under bombs', () => {
  let child: ChildProcess;
  let url: string;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const create = async (path: string, body: unknown): Promise<string> => {
    const r = await call('POST', path, body);
    if (r.status !== 200) throw new Error(`${path}: ${JSON.stringify(r.body)}`);
    return r.body.value.id as string;
  };
  /** A provider of `template` and one data source: their ids and the data source's path. */
  const dataSource = async (template: string, extra: Record<string, unknown> = {}) => {
    const id = await create('/api/v1/providers/custom', {
      name: `p-${randomBytes(4).toString('hex')}`,
      custom_template: template,
      ...extra,
    });
    const ds = await create(`/api/v1/providers/custom/${id}/datasources`, { id, name: 'ds' });
    return { ids: { id, data_source_id: ds }, base: `/api/v1/providers/custom/${id}/datasources/${ds}` };
  };
  const fieldsOf = (r: { status: number; body: any }): string[] => {
    expect(r.status).toBe(400);
    return (r.body.details as any[]).flatMap((d) => (d.field_violations ?? []).map((v: any) => v.field));
  };

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, '--port', '0', '--api-key', KEY], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout! });
    const exited = once(child, 'exit').then(() => Promise.reject(new Error('the emulator exited')));
    for (;;) {
      const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string];
      const found = /https?:\/\/[^\s)]+/.exec(line);
      if (found) {
        url = found[0];
        break;
      }
    }
  });

  afterAll(async () => {
    if (child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  });

  it(`refuses every bomb, answers afterwards, and peaks under ${PEAK_RSS_LIMIT_MB} MB`, async () => {
    const mapping = { csv: { columns: { User: 'name', Email: 'identities' } } };
    const csv = await dataSource('application', { configuration_json: JSON.stringify(mapping) });
    const target = await dataSource('application');

    // 0.5 MB of gzip that inflates to 120 million rows (480 MB) of `1,a`.
    const csvGzip = csvRowsBomb(120_000_000).toString('base64');
    // 3 million rows, 30 MB of CSV: a 40 MB body.
    const csvPlain = Buffer.from(`User,Email\n${'1234,abcd\n'.repeat(3_000_000)}`).toString('base64');
    // 0.5 MB of gzip that inflates to a 500 MB JSON object.
    const json = jsonBomb(500_000_000);
    expect(json.length).toBeLessThan(1024 * 1024);
    const upload = async () => {
      const parts = (body: Record<string, unknown>) => call('POST', `${target.base}:parts`, body);
      const { upload_id } = (await parts({ operation: 'start' })).body as { upload_id: string };
      const data = json.toString('base64');
      expect((await parts({ operation: 'upload', upload_id, sequence_number: 1, data })).status).toBe(200);
      return parts({ operation: 'complete', upload_id, sequence_count: 1 });
    };

    const answers = await Promise.all([
      call('POST', `${csv.base}:push_csv`, { csv_data: csvGzip, compression_type: 'GZIP' }),
      call('POST', `${csv.base}:push_csv`, { csv_data: csvPlain }),
      ...Array.from({ length: 6 }, () =>
        call('POST', `${target.base}:push`, {
          ...target.ids,
          json_data: json.toString('base64'),
          compression_type: 'GZIP',
        }),
      ),
      upload(),
      upload(),
    ]);
    expect(answers.map(fieldsOf)).toEqual([
      ['csv_data'],
      ['csv_data'],
      ...Array.from({ length: 6 }, () => ['json_data']),
      ['data'],
      ['data'],
    ]);

    expect((await call('GET', '/api/v1/providers/custom')).status).toBe(200);
    const peak = await peakRssMb(child.pid!);
    // The figure, for the record of a CI run.
    console.info(`emulator peak RSS under bombs: ${Math.round(peak)} MB`);
    expect(peak).toBeLessThan(PEAK_RSS_LIMIT_MB);
  }, 120_000);
});
