import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { samplePayload, useEmulator, userFacing, violations } from '../private-test-helpers/harness.js';

describe('push', () => {
  const h = useEmulator();

  it('accepts a plain JSON payload (compression NONE) and answers its warnings', async () => {
    const t = await h().target();
    const r = await h().push(t.base, samplePayload());
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([
      { message: expect.stringContaining('Cannot find identity by names "bob@example.com"') },
    ]);
  });

  it('begins an unmatched identity warning with the service text, and says where after it', async () => {
    const t = await h().target();
    const r = await h().push(t.base, samplePayload());
    const [message] = (r.body.warnings as { message: string }[]).map((w) => w.message);
    // Clients (the vendor's Python SDK among them) recognise the warning by how it begins.
    expect(message).toMatch(/^Cannot find identity by names "bob@example\.com"/);
    expect(message).toMatch(/\(at applications\[0\]\.local_users\[0\]\.identities\[0\]\)$/);
    // The push event keeps the same text.
    const events = (await h().call('GET', '/_emulator/events?event_type=OAA_PUSH')).body.values;
    expect(events[0].error.metadata['0']).toBe(message);
  });

  it('lists 1000 unmatched identities and counts the rest in one last warning', async () => {
    const t = await h().target();
    const payload = samplePayload();
    const app = (payload.applications as { local_users: Record<string, unknown>[] }[])[0]!;
    app.local_users = Array.from({ length: 1003 }, (_, i) => ({
      name: `u${i}`,
      identities: [`u${i}@example.com`],
    }));
    payload.identity_to_permissions = [];
    const r = await h().push(t.base, payload);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const messages = (r.body.warnings as { message: string }[]).map((w) => w.message);
    expect(messages).toHaveLength(1001);
    expect(messages[999]).toContain('Cannot find identity by names "u999@example.com"');
    expect(messages[1000]).toBe(
      '... and 3 more identities that match no identity-provider user or group (not listed)',
    );
  });

  it('accepts a gzip + base64 payload', async () => {
    const t = await h().target();
    const r = await h().push(t.base, samplePayload(), { gzip: true });
    expect(r.status).toBe(200);
    expect((await h().call('GET', t.base)).body.value.status).toBe('SUCCESS');
  });

  it.each([
    ['NONE', false],
    ['none', false],
    [0, false],
    ['GZIP', true],
    ['gzip', true],
    [1, true],
  ] as const)('accepts compression_type %j', async (compression, gz) => {
    const t = await h().target();
    const json = JSON.stringify(samplePayload());
    const [, providerId, dsId] = /custom\/([^/]+)\/datasources\/(.+)$/.exec(t.base)!;
    const r = await h().call('POST', `${t.base}:push`, {
      id: providerId,
      data_source_id: dsId,
      compression_type: compression,
      json_data: gz ? gzipSync(json).toString('base64') : json,
    });
    expect(r.status).toBe(200);
  });

  it.each([
    ['an unknown compression_type', { compression_type: 'ZIP' }, 'compression_type'],
    ['a provider id other than the path', { id: '00000000-0000-4000-8000-000000000000' }, 'id'],
    [
      'a data source id other than the path',
      { data_source_id: '00000000-0000-4000-8000-000000000000' },
      'data_source_id',
    ],
    ['no json_data', { json_data: undefined }, 'json_data'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a non-boolean priority_push', { priority_push: 'yes' }, 'priority_push'],
  ])('rejects a body with %s, naming the field', async (_what, extra, field) => {
    const t = await h().target();
    const r = await h().push(t.base, samplePayload(), { extra });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    expect(violations(r.body).map((v) => v.field)).toContain(field);
  });

  it.each([
    ['not base64', 'GZIP', '{"applications": []}', 'is not valid base64'],
    ['not gzip', 'GZIP', Buffer.from('plain').toString('base64'), 'is not valid gzip'],
    ['not JSON', 'NONE', '{"applications": [', 'is not valid JSON'],
    ['a JSON array', 'NONE', '[1, 2]', 'must hold a JSON object'],
  ])(
    'rejects json_data that is %s and marks the data source FAILED',
    async (_what, compression, jsonData, message) => {
      const t = await h().target();
      const [, providerId, dsId] = /custom\/([^/]+)\/datasources\/(.+)$/.exec(t.base)!;
      const r = await h().call('POST', `${t.base}:push`, {
        id: providerId,
        data_source_id: dsId,
        json_data: jsonData,
        compression_type: compression,
      });
      expect(r.status).toBe(400);
      expect(violations(r.body)).toEqual([
        { field: 'json_data', description: expect.stringContaining(message) },
      ]);
      expect((await h().call('GET', t.base)).body.value.status).toBe('FAILED');
    },
  );

  it('lists every validation error with its payload path and a user-facing detail', async () => {
    const t = await h().target();
    const payload = samplePayload();
    const app = (payload.applications as Record<string, unknown>[])[0]!;
    app.local_users = [{ name: 'bob', groups: ['nope'] }, { name: 'BOB' }];
    app.surprise = true;
    const r = await h().push(t.base, payload);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    const fields = violations(r.body).map((v) => v.field);
    expect(fields).toContain('applications[0].surprise');
    expect(userFacing(r.body)).toMatchObject({ reason: 'INVALID_ARGUMENTS' });
  });

  it('reports reference errors (unknown group, duplicate user) after the shape is right', async () => {
    const t = await h().target();
    const payload = samplePayload();
    const app = (payload.applications as Record<string, unknown>[])[0]!;
    app.local_users = [{ name: 'bob', groups: ['nope'] }, { name: 'BOB' }];
    const r = await h().push(t.base, payload);
    expect(r.status).toBe(400);
    const fields = violations(r.body).map((v) => v.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'applications[0].local_users[0].groups[0]',
        'applications[0].local_users[1].name',
      ]),
    );
  });

  it('records OAA_PUSH events: WARNING with indexed metadata, INFO with error null, ERROR on rejection', async () => {
    const t = await h().target();
    await h().push(t.base, samplePayload());
    const quiet = samplePayload();
    delete (
      (quiet.applications as Record<string, unknown>[])[0]!.local_users as Record<string, unknown>[]
    )[0]!.identities;
    await h().push(t.base, quiet);
    await h().push(t.base, { applications: [] });
    const events = (await h().call('GET', '/_emulator/events?event_type=OAA_PUSH')).body.values;
    expect(events).toHaveLength(3);
    expect(events[0]).toMatchObject({
      category: 'INTEGRATIONS',
      severity: 'WARNING',
      entity: 'DATASOURCE',
      entity_id: t.dataSourceId,
      provider_id: t.providerId,
      error: {
        reason: 'OAA_PUSH_WARNINGS',
        metadata: { '0': expect.stringContaining('Cannot find identity by names') },
      },
    });
    expect(events[0].error.request_id).toMatch(/^[0-9a-f]{32}$/);
    expect(events[1]).toMatchObject({ category: 'INTEGRATIONS', severity: 'INFO', error: null });
    expect(events[2]).toMatchObject({ severity: 'ERROR', error: { reason: 'INVALID_ARGUMENTS' } });
  });

  it('refuses an incremental payload as the first push to a data source', async () => {
    const t = await h().target();
    const r = await h().push(t.base, { ...samplePayload(), incremental_change: true });
    expect(r.status).toBe(400);
    expect(violations(r.body).map((v) => v.field)).toContain('incremental_change');
  });

  it('answers 404 for a push to an unknown data source', async () => {
    const t = await h().target();
    const r = await h().call(
      'POST',
      `/api/v1/providers/custom/${t.providerId}/datasources/00000000-0000-4000-8000-000000000000:push`,
      {},
    );
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NotFound');
  });
});

describe('push body limit', () => {
  const h = useEmulator({ bodyLimit: 64 * 1024 });

  it('turns a too-large body into 400 InvalidArgument on json_data', async () => {
    const t = await h().target();
    const big = samplePayload({ padding: 'x'.repeat(100 * 1024) });
    const r = await h().push(t.base, big);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    expect(violations(r.body)).toEqual([
      { field: 'json_data', description: expect.stringContaining('exceeds the limit of 65536 bytes') },
    ]);
    expect(r.body.request_id).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('push at the spec limit', () => {
  const h = useEmulator();

  it('refuses a body over 100 MB and accepts the next request on the same server', async () => {
    const t = await h().target();
    const [, providerId, dsId] = /custom\/([^/]+)\/datasources\/(.+)$/.exec(t.base)!;
    const r = await h().call('POST', `${t.base}:push`, {
      id: providerId,
      data_source_id: dsId,
      json_data: 'a'.repeat(100 * 1024 * 1024 + 1),
    });
    expect(r.status).toBe(400);
    expect(violations(r.body)[0]?.field).toBe('json_data');
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
  });
});
