/**
 * One request must not be able to exhaust the emulator. A CSV of millions of rows, or gzip
 * that inflates hundreds of times over, is refused with 400 naming its field once a limit is
 * passed, and the emulator takes the next push. (memory-bound.test.ts sends the full-size bombs to
 * an emulator process and checks its peak memory.)
 */
import { describe, expect, it } from 'vitest';
import { MAX_CSV_BYTES, MAX_CSV_ROWS, MAX_RESOURCE_DEPTH, MIN_INFLATE_ALLOWANCE } from '../push/limits.js';
import { csvRowsBomb, gzipRepeated, jsonBomb } from '../private-test-helpers/bombs.js';
import { onlyViolation, samplePayload, useEmulator } from '../private-test-helpers/harness.js';

const MAPPING = { csv: { columns: { User: 'name', Email: 'identities' } } };
const base64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

describe('the work of one push is bounded', () => {
  const h = useEmulator();
  const csvTarget = () => h().target('application', { configuration_json: JSON.stringify(MAPPING) });
  const pushCsv = (base: string, csv: Buffer | string, gzip = false) =>
    h().call('POST', `${base}:push_csv`, {
      csv_data: base64(csv),
      ...(gzip ? { compression_type: 'GZIP' } : {}),
    });

  it('refuses a gzip CSV of a million rows at the row limit, then takes a good CSV', async () => {
    const t = await csvTarget();
    const r = await pushCsv(t.base, csvRowsBomb(1_000_000), true);
    const v = onlyViolation(r);
    expect(v.field).toBe('csv_data');
    expect(v.description).toContain(
      `line ${MAX_CSV_ROWS + 2}: the CSV has more than ${MAX_CSV_ROWS} data rows`,
    );
    expect(v.description).toContain(':parts');
    expect((await h().call('GET', t.base)).body.value.status).toBe('FAILED');
    expect((await pushCsv(t.base, 'User,Email\nann,ann@example.com\n')).status).toBe(200);
  });

  it('refuses a plain CSV one row past the limit, and takes one at the limit', async () => {
    const t = await csvTarget();
    const over = onlyViolation(await pushCsv(t.base, `User,Email\n${'1,a\n'.repeat(MAX_CSV_ROWS + 1)}`));
    expect(over.field).toBe('csv_data');
    expect(over.description).toContain(`more than ${MAX_CSV_ROWS} data rows`);
    const at = await pushCsv(t.base, `User,Email\n${'1,a\n'.repeat(MAX_CSV_ROWS)}`);
    expect(at.status).toBe(200);
  });

  it('refuses gzip CSV text past 64 MiB under the row limit', async () => {
    const t = await csvTarget();
    // 70,000 rows of 1,000 bytes: 70 MB of text, well under the row limit.
    const row = `${'x'.repeat(996)},a\n`;
    const csv = gzipRepeated('User,Email\n', Buffer.from(row.repeat(1000)), 70);
    const v = onlyViolation(await pushCsv(t.base, csv, true));
    expect(v).toEqual({
      field: 'csv_data',
      description: expect.stringContaining(`the CSV is larger than ${MAX_CSV_BYTES} bytes`),
    });
  });

  it('refuses gzip JSON on :push that inflates past its limit, then takes a gzip push', async () => {
    const t = await h().target();
    const bomb = jsonBomb(40_000_000);
    const r = await h().call('POST', `${t.base}:push`, {
      id: t.providerId,
      data_source_id: t.dataSourceId,
      json_data: bomb.toString('base64'),
      compression_type: 'GZIP',
    });
    expect(onlyViolation(r)).toEqual({
      field: 'json_data',
      description: expect.stringContaining(`decompresses to more than ${MIN_INFLATE_ALLOWANCE} bytes`),
    });
    expect((await h().push(t.base, samplePayload(), { gzip: true })).status).toBe(200);
  });

  it('refuses gzip chunks on :parts that inflate past the limit, naming data', async () => {
    const t = await h().target();
    const parts = (body: Record<string, unknown>) => h().call('POST', `${t.base}:parts`, body);
    const { upload_id } = (await parts({ operation: 'start' })).body as { upload_id: string };
    const bomb = jsonBomb(40_000_000);
    const half = bomb.length >> 1;
    for (const [seq, data] of [bomb.subarray(0, half), bomb.subarray(half)].entries()) {
      const up = await parts({
        operation: 'upload',
        upload_id,
        sequence_number: seq + 1,
        data: base64(data),
      });
      expect(up.status).toBe(200);
    }
    const r = await parts({ operation: 'complete', upload_id, sequence_count: 2 });
    expect(onlyViolation(r)).toEqual({
      field: 'data',
      description: expect.stringContaining(`decompresses to more than ${MIN_INFLATE_ALLOWANCE} bytes`),
    });
    expect((await h().push(t.base, samplePayload(), { gzip: true })).status).toBe(200);
  });

  it('answers each of six bombs sent at once with 400, then takes the next push', async () => {
    const t = await h().target();
    const body = {
      id: t.providerId,
      data_source_id: t.dataSourceId,
      json_data: jsonBomb(40_000_000).toString('base64'),
      compression_type: 'GZIP',
    };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => h().call('POST', `${t.base}:push`, body)),
    );
    for (const r of answers) expect(onlyViolation(r).field).toBe('json_data');
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
  });

  it('refuses sub_resources nested past the depth limit with 400, not 500, and takes them at it', async () => {
    const t = await h().target();
    /** An application payload with one resource whose sub_resources nest `depth` levels. */
    const nested = (depth: number): string => {
      const resource = `${'{"name":"r","resource_type":"folder","sub_resources":['.repeat(depth)}{"name":"leaf","resource_type":"folder"}${']}'.repeat(depth)}`;
      return `{"applications":[{"name":"a","application_type":"x","local_users":[{"name":"u"}],"resources":[${resource}]}]}`;
    };
    const push = (json_data: string) =>
      h().call('POST', `${t.base}:push`, { id: t.providerId, data_source_id: t.dataSourceId, json_data });
    expect(onlyViolation(await push(nested(5000)))).toEqual({
      field: 'applications[0].resources[0]',
      description: expect.stringContaining(`more than ${MAX_RESOURCE_DEPTH} levels deep`),
    });
    expect(onlyViolation(await push(nested(MAX_RESOURCE_DEPTH + 1))).field).toBe(
      'applications[0].resources[0]',
    );
    expect((await push(nested(MAX_RESOURCE_DEPTH))).status).toBe(200);
  });
});
