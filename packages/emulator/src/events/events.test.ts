import { describe, expect, it } from 'vitest';
import { EmulatorClock } from '../clock.js';
import {
  samplePayload,
  useEmulator,
  userFacing,
  values,
  violations,
} from '../private-test-helpers/harness.js';

const LIST = '/api/preview/events';
const EXPORT = '/api/v1/events/export';
const DAY = 24 * 3600 * 1000;

function q(params: Record<string, string>): string {
  return `?${new URLSearchParams(params).toString()}`;
}

describe('events recorded for what the emulator does', () => {
  const h = useEmulator();

  it('records push, data source, provider and API key events with the spec fields', async () => {
    const t = await h().target();
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
    const changed = samplePayload();
    (changed.applications as { local_groups: object[] }[])[0]!.local_groups.push({ name: 'ops' });
    expect((await h().push(t.base, changed)).status).toBe(200);
    const hr = await h().provider('HR', 'hris');
    expect(
      (await h().call('PATCH', `/api/v1/providers/custom/${hr.id}`, { provisioning: true })).status,
    ).toBe(200);
    const key = await h().call('POST', '/_emulator/api_keys', { role: 'member', name: 'ci' });
    const keyId = key.body.value.id as string;
    expect((await h().call('POST', `/_emulator/api_keys/${keyId}/revoke`, {})).status).toBe(200);
    expect(
      (await h().call('GET', '/api/v1/providers/custom', undefined, { key: key.body.value.key })).status,
    ).toBe(401);
    expect((await h().call('POST', `/_emulator/api_keys/${keyId}/reinstate`, {})).status).toBe(200);
    expect(
      (await h().call('GET', '/api/v1/providers/custom', undefined, { key: key.body.value.key })).status,
    ).toBe(200);
    expect((await h().call('DELETE', `/_emulator/api_keys/${keyId}`)).status).toBe(200);
    expect((await h().call('DELETE', `${t.base}`)).status).toBe(200);

    const all = values<Record<string, unknown>>(await h().call('GET', LIST));
    const types = all.map((e) => e.event_type);
    expect(types).toEqual([
      'DATASOURCE_REGISTERED',
      'OAA_PUSH',
      'DATASOURCE_PARSED',
      'OAA_PUSH',
      'DATASOURCE_PARSED_NO_CHANGE',
      'OAA_PUSH',
      'DATASOURCE_PARSED',
      'PROVIDER_CONFIG_CHANGED',
      'API_KEY_CREATED',
      'API_KEY_REVOKED',
      'API_KEY_REINSTATED',
      'API_KEY_DELETED',
      'DATASOURCE_REMOVED',
    ]);
    const push = all[1]!;
    // The sample's local user names an identity no identity-provider user has: one warning.
    expect(push).toMatchObject({
      category: 'INTEGRATIONS',
      severity: 'WARNING',
      entity: 'DATASOURCE',
      entity_id: t.dataSourceId,
      provider_id: t.providerId,
      error: { reason: 'OAA_PUSH_WARNINGS' },
    });
    expect(Object.values((push.error as { metadata: object }).metadata).join()).toContain('bob@example.com');
    expect(all[2]).toMatchObject({ event_type: 'DATASOURCE_PARSED', severity: 'INFO', error: null });
    expect(Object.keys(push).sort()).toEqual(
      [
        'id',
        'timestamp',
        'category',
        'severity',
        'name',
        'message',
        'provider_id',
        'entity',
        'entity_id',
        'entity_name',
        'event_type',
        'error',
      ].sort(),
    );
    expect(all.find((e) => e.event_type === 'API_KEY_CREATED')).toMatchObject({
      category: 'SYSTEM',
      entity_id: keyId,
      entity_name: 'ci',
    });
    expect(JSON.stringify(all)).not.toContain(key.body.value.key);
  });
});

describe('GET /api/preview/events', () => {
  const clock = new EmulatorClock({ start: '2026-06-01T00:00:00Z', frozen: true });
  // The page test records its 1,001 events by creating as many API keys, past the default cap of keys.
  const h = useEmulator({ clock, limits: { maxApiKeys: 2000 } });

  async function someEvents(): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const t = await h().target();
      await h().push(t.base, samplePayload());
      clock.advance(60_000);
    }
  }

  it('filters with SCIM expressions', async () => {
    clock.set('2026-06-01T00:00:00Z');
    await someEvents();
    const get = async (filter: string) =>
      values<{ event_type: string; timestamp: string }>(await h().call('GET', LIST + q({ filter })));
    expect((await get('event_type eq "OAA_PUSH"')).length).toBe(3);
    expect((await get('event_type eq "oaa_push"')).length).toBe(3);
    expect((await get('event_type ne "OAA_PUSH"')).length).toBe(6);
    expect((await get('event_type sw "DATASOURCE_" and not (event_type ew "_PARSED")')).length).toBe(3);
    expect((await get('name co "registered"')).length).toBe(3);
    expect(
      (await get('category eq "INTEGRATIONS" and (severity eq "ERROR" or severity eq "WARNING")')).length,
    ).toBe(3);
    expect((await get('provider_id pr and entity eq "DATASOURCE"')).length).toBe(9);
    expect((await get('timestamp ge "2026-06-01T00:01:00Z"')).map((e) => e.timestamp)).toEqual(
      Array(6)
        .fill(0)
        .map((_, i) => (i < 3 ? '2026-06-01T00:01:00.000Z' : '2026-06-01T00:02:00.000Z')),
    );
    expect((await get('timestamp lt "2026-06-01T00:01:00Z"')).length).toBe(3);
    expect((await get('Event_Type EQ "OAA_PUSH" and timestamp gt "2026-06-01T00:00:00Z"')).length).toBe(2);
  });

  it('answers 400 naming the field for a bad filter, page size or token', async () => {
    for (const filter of [
      'event_type eq',
      'colour eq "red"',
      'severity eq 5',
      'timestamp ge "yesterday"',
      '((((',
    ]) {
      const r = await h().call('GET', LIST + q({ filter }));
      expect(r.status, filter).toBe(400);
      expect(violations(r.body)[0]?.field, filter).toBe('filter');
    }
    for (const page_size of ['0', '10001', 'x', '-1']) {
      const r = await h().call('GET', LIST + q({ page_size }));
      expect(r.status).toBe(400);
      expect(violations(r.body)[0]?.field).toBe('page_size');
    }
    expect((await h().call('GET', LIST + q({ page_size: '10000' }))).status).toBe(200);
    const bad = await h().call('GET', LIST + q({ page_token: 'garbage' }));
    expect(violations(bad.body)[0]?.field).toBe('page_token');
  });

  it('refuses a start time more than 32 days back, naming the earliest allowed time', async () => {
    clock.set('2026-06-01T00:00:00Z');
    const r = await h().call('GET', LIST + q({ filter: 'timestamp ge "2026-04-29T23:59:59Z"' }));
    expect(r.status).toBe(400);
    expect(violations(r.body)).toEqual([
      {
        field: 'filter.start_time',
        description:
          'must be no more than 32 days in the past: the earliest allowed start time is 2026-04-30T00:00:00.000Z',
      },
    ]);
    expect(userFacing(r.body)?.reason).toBe('INVALID_ARGUMENTS');
    expect((await h().call('GET', LIST + q({ filter: 'timestamp ge "2026-04-30T00:00:00Z"' }))).status).toBe(
      200,
    );
  });

  it('pages with page_size, 1,000 by default, every event once', async () => {
    clock.set('2026-06-01T00:00:00Z');
    await someEvents();
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    for (;;) {
      const r = await h().call('GET', LIST + q({ page_size: '2', ...(token ? { page_token: token } : {}) }));
      expect(r.status).toBe(200);
      seen.push(...values<{ id: string }>(r).map((e) => e.id));
      pages++;
      if (!r.body.has_more) break;
      token = r.body.next_page_token as string;
    }
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(9);
    const other = await h().call('GET', LIST + q({ filter: 'severity eq "INFO"', page_token: token }));
    expect(violations(other.body)[0]?.field).toBe('page_token');
  });

  it('answers 1,000 events per page by default', async () => {
    clock.set('2026-06-01T00:00:00Z');
    for (let i = 0; i < 1001; i++) await h().call('POST', '/_emulator/api_keys', { name: `k${i}` });
    const first = await h().call('GET', LIST);
    expect(first.body.values).toHaveLength(1000);
    expect(first.body.has_more).toBe(true);
    const second = await h().call('GET', LIST + q({ page_token: first.body.next_page_token }));
    expect(second.body.values.map((e: { entity_name: string }) => e.entity_name)).toEqual(['k1000']);
    expect(second.body.has_more).toBe(false);
  }, 120_000);

  it('keeps events 90 days on the emulator clock', async () => {
    clock.set('2026-01-01T00:00:00Z');
    await someEvents();
    clock.advance(89 * DAY);
    expect(values(await h().call('GET', LIST)).length).toBe(9);
    clock.advance(2 * DAY);
    const t = await h().target();
    expect(values<{ entity_id: string }>(await h().call('GET', LIST))).toEqual([
      expect.objectContaining({ event_type: 'DATASOURCE_REGISTERED', entity_id: t.dataSourceId }),
    ]);
  });

  it('keeps the /_emulator/events view to the same 90 days, read before the API', async () => {
    clock.set('2027-01-01T00:00:00Z');
    await someEvents();
    clock.advance(91 * DAY);
    const t = await h().target();
    const view = values<{ event_type: string; entity_id: string; timestamp: string }>(
      await h().call('GET', '/_emulator/events?limit=100000'),
    );
    const cutoff = clock.nowMs() - 90 * DAY;
    expect(view.filter((e) => Date.parse(e.timestamp) < cutoff)).toEqual([]);
    expect(view).toContainEqual(
      expect.objectContaining({ event_type: 'DATASOURCE_REGISTERED', entity_id: t.dataSourceId }),
    );
  });
});

describe('GET /api/v1/events/export', () => {
  const clock = new EmulatorClock({ start: '2026-06-01T00:00:00Z', frozen: true });
  const h = useEmulator({ clock });

  it('is a continuous log from persisted_at GE, including events that arrive while it is read', async () => {
    clock.set('2026-06-01T00:00:00Z');
    await h().target();
    clock.set('2026-06-01T01:00:00Z');
    const a = await h().target();
    const first = await h().call(
      'GET',
      EXPORT + q({ filter: 'persisted_at GE "2026-06-01T00:30:00Z"', page_size: '1' }),
    );
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['events', 'next_page_token']);
    expect(first.body.events.map((e: { entity_id: string }) => e.entity_id)).toEqual([a.dataSourceId]);
    // Arrives while the log is read, with a time before the start (the clock was set back).
    clock.set('2026-06-01T00:10:00Z');
    const b = await h().target();
    const second = await h().call('GET', EXPORT + q({ page_token: first.body.next_page_token }));
    expect(second.body.events.map((e: { entity_id: string }) => e.entity_id)).toEqual([b.dataSourceId]);
    const third = await h().call('GET', EXPORT + q({ page_token: second.body.next_page_token }));
    expect(third.body.events).toEqual([]);
    expect(third.body.next_page_token).toBe(second.body.next_page_token);
  });

  it('answers 400 for another filter, both filter and token, or an old start', async () => {
    clock.set('2026-06-01T00:00:00Z');
    const bad = await h().call('GET', EXPORT + q({ filter: 'category eq "SYSTEM"' }));
    expect(violations(bad.body)[0]?.field).toBe('filter');
    const old = await h().call('GET', EXPORT + q({ filter: 'persisted_at GE "2026-01-01T00:00:00Z"' }));
    expect(violations(old.body)[0]?.field).toBe('filter.start_time');
    const ok = await h().call('GET', EXPORT);
    const both = await h().call(
      'GET',
      EXPORT + q({ filter: 'persisted_at GE "2026-06-01T00:00:00Z"', page_token: ok.body.next_page_token }),
    );
    expect(violations(both.body)[0]?.field).toBe('filter');
  });

  it('can answer ResourceExhaused through /_emulator/faults', async () => {
    await h().call('POST', '/_emulator/faults', {
      method: 'GET',
      path: EXPORT,
      status: 429,
      code: 'ResourceExhaused',
    });
    const r = await h().call('GET', EXPORT);
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('ResourceExhaused');
    expect((await h().call('GET', EXPORT)).status).toBe(200);
  });
});
