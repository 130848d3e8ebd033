import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EmulatorClock } from '../clock.js';
import {
  names,
  samplePayload,
  useEmulator,
  violations,
  type Harness,
} from '../private-test-helpers/harness.js';

function slices(bytes: Buffer, count: number): Buffer[] {
  const size = Math.ceil(bytes.length / count);
  return Array.from({ length: count }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

async function start(h: Harness, base: string): Promise<string> {
  const r = await h.call('POST', `${base}:parts`, { operation: 'start' });
  expect(r.status).toBe(200);
  expect(r.body.upload_id).toMatch(/^[0-9a-f-]{36}$/);
  return r.body.upload_id as string;
}

async function upload(h: Harness, base: string, uploadId: string, seq: number, data: Buffer) {
  return h.call('POST', `${base}:parts`, {
    operation: 'upload',
    upload_id: uploadId,
    sequence_number: seq,
    data: data.toString('base64'),
  });
}

async function complete(h: Harness, base: string, uploadId: string, count: number) {
  return h.call('POST', `${base}:parts`, {
    operation: 'complete',
    upload_id: uploadId,
    sequence_count: count,
  });
}

describe('multipart upload', () => {
  const clock = new EmulatorClock();
  const h = useEmulator({ clock });

  it('assembles gzip chunks sent out of order and processes them like a push', async () => {
    const t = await h().target();
    const id = await start(h(), t.base);
    const parts = slices(gzipSync(JSON.stringify(samplePayload())), 4);
    for (const seq of [3, 1, 4, 2])
      expect((await upload(h(), t.base, id, seq, parts[seq - 1]!)).status).toBe(200);
    const r = await complete(h(), t.base, id, 4);
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([{ message: expect.stringContaining('Cannot find identity by names') }]);
    expect((await h().call('GET', t.base)).body.value.status).toBe('SUCCESS');
    const stats = (await h().call('GET', `/_emulator/graph/stats?data_source_id=${t.dataSourceId}`)).body;
    expect(stats.nodes['OAA.acme.User']).toBe(1);
    // A repeated complete (a retry after a lost answer) gets the same answer.
    expect((await complete(h(), t.base, id, 4)).body).toEqual(r.body);
  });

  it('keeps the gzip chunks as the stored payload: the same upload again is no change, and an incremental push applies to it', async () => {
    const t = await h().target();
    const gz = gzipSync(JSON.stringify(samplePayload()));
    const send = async () => {
      const id = await start(h(), t.base);
      const parts = slices(gz, 5);
      for (let seq = 1; seq <= 5; seq++)
        expect((await upload(h(), t.base, id, seq, parts[seq - 1]!)).status).toBe(200);
      expect((await complete(h(), t.base, id, 5)).status).toBe(200);
    };
    await send();
    await send();
    const events = (await h().call('GET', '/api/preview/events')).body.values as { event_type: string }[];
    expect(events.map((e) => e.event_type).filter((e) => e.startsWith('DATASOURCE_PARSED'))).toEqual([
      'DATASOURCE_PARSED',
      'DATASOURCE_PARSED_NO_CHANGE',
    ]);
    const r = await h().push(t.base, {
      incremental_change: true,
      applications: [
        { name: 'acme', application_type: 'acme', local_users: [{ name: 'carol', operation: 'add' }] },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const users = await h().call(
      'GET',
      `/_emulator/graph/nodes?data_source_id=${t.dataSourceId}&type=OAA.acme.User`,
    );
    expect(names(users).sort()).toEqual(['bob', 'carol']);
  });

  it('accepts plain JSON chunks, and a repeated sequence number replaces the earlier chunk', async () => {
    const t = await h().target();
    const id = await start(h(), t.base);
    const parts = slices(Buffer.from(JSON.stringify(samplePayload())), 2);
    await upload(h(), t.base, id, 1, Buffer.from('garbage that will be replaced'));
    await upload(h(), t.base, id, 2, parts[1]!);
    await upload(h(), t.base, id, 1, parts[0]!);
    expect((await complete(h(), t.base, id, 2)).status).toBe(200);
  });

  it('names each missing chunk, and chunks beyond sequence_count', async () => {
    const t = await h().target();
    const id = await start(h(), t.base);
    await upload(h(), t.base, id, 1, Buffer.from('{'));
    await upload(h(), t.base, id, 4, Buffer.from('}'));
    const r = await complete(h(), t.base, id, 3);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    expect(violations(r.body)).toEqual([
      { field: 'sequence_number', description: expect.stringContaining('sequence_number 2 missing') },
      { field: 'sequence_number', description: expect.stringContaining('sequence_number 3 missing') },
      {
        field: 'sequence_count',
        description: expect.stringContaining('chunk 4 was uploaded but sequence_count is 3'),
      },
    ]);
  });

  it.each([
    [{ operation: 'upload', upload_id: 'not-a-uuid', sequence_number: 1, data: '' }, 'upload_id'],
    [
      {
        operation: 'upload',
        upload_id: '00000000-0000-4000-8000-000000000000',
        sequence_number: 0,
        data: '',
      },
      'sequence_number',
    ],
    [
      {
        operation: 'upload',
        upload_id: '00000000-0000-4000-8000-000000000000',
        sequence_number: 100,
        data: '',
      },
      'sequence_number',
    ],
    [
      { operation: 'complete', upload_id: '00000000-0000-4000-8000-000000000000', sequence_count: 0 },
      'sequence_count',
    ],
    [{ operation: 'finish' }, 'operation'],
    [{ operation: 'start', upload_id: '00000000-0000-4000-8000-000000000000' }, 'upload_id'],
  ])('rejects %j naming %s', async (body, field) => {
    const t = await h().target();
    const r = await h().call('POST', `${t.base}:parts`, body);
    expect(r.status).toBe(400);
    expect(violations(r.body).map((v) => v.field)).toContain(field);
  });

  it('rejects chunk data that is not base64', async () => {
    const t = await h().target();
    const id = await start(h(), t.base);
    const r = await h().call('POST', `${t.base}:parts`, {
      operation: 'upload',
      upload_id: id,
      sequence_number: 1,
      data: '{not base64}',
    });
    expect(r.status).toBe(400);
    expect(violations(r.body)[0]?.field).toBe('data');
  });

  it('answers 404 for an unknown upload id, and one of another data source', async () => {
    const t = await h().target();
    const unknown = await upload(h(), t.base, '00000000-0000-4000-8000-000000000000', 1, Buffer.from('x'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NotFound');
    const other = await h().target();
    const id = await start(h(), other.base);
    expect((await complete(h(), t.base, id, 1)).status).toBe(404);
  });

  it('expires a session after an hour without activity, by the emulator clock', async () => {
    const t = await h().target();
    const id = await start(h(), t.base);
    await upload(h(), t.base, id, 1, Buffer.from(JSON.stringify(samplePayload())));
    clock.advance(59 * 60 * 1000);
    expect((await upload(h(), t.base, id, 1, Buffer.from(JSON.stringify(samplePayload())))).status).toBe(200);
    clock.advance(61 * 60 * 1000);
    const r = await complete(h(), t.base, id, 1);
    expect(r.status).toBe(404);
    expect(r.body.message).toContain('expired');
  });

  it('rejects an assembled payload that fails validation, keeping the session for corrected chunks', async () => {
    const t = await h().target();
    const id = await start(h(), t.base);
    await upload(h(), t.base, id, 1, Buffer.from('{"applications": []}'));
    const bad = await complete(h(), t.base, id, 1);
    expect(bad.status).toBe(400);
    expect(violations(bad.body).map((v) => v.field)).toContain('applications');
    await upload(h(), t.base, id, 1, Buffer.from(JSON.stringify(samplePayload())));
    expect((await complete(h(), t.base, id, 1)).status).toBe(200);
  });
});
