import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { samplePayload, useEmulator, values, violations } from '../private-test-helpers/harness.js';

function rawGet(url: string, key: string): Promise<'answered' | 'dropped'> {
  return new Promise((resolve) => {
    const req = request(url, { headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve('answered'));
    });
    req.on('error', () => resolve('dropped'));
    req.end();
  });
}

describe('faults', () => {
  const h = useEmulator();

  it('fails the next N matching calls with the given status, then lets calls through', async () => {
    const t = await h().target();
    const f = await h().call('POST', '/_emulator/faults', {
      method: 'POST',
      path: '/api/v1/providers/custom/*:push',
      count: 2,
      status: 503,
    });
    expect(f.status).toBe(200);
    expect(f.body.value).toMatchObject({ remaining: 2, status: 503 });
    const first = await h().push(t.base, samplePayload());
    expect(first.status).toBe(503);
    expect(first.body.code).toBe('Unavailable');
    expect(first.body.request_id).toMatch(/^[0-9a-f]{32}$/);
    expect((await h().call('GET', '/api/v1/providers/custom')).status).toBe(200);
    expect((await h().push(t.base, samplePayload())).status).toBe(503);
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
    expect((await h().call('GET', '/_emulator/faults')).body.values).toEqual([]);
  });

  it('answers 429 ResourceExhaused with Retry-After, and 502 with a chosen code', async () => {
    await h().call('POST', '/_emulator/faults', {
      path: '/api/v1/providers/custom',
      code: 'ResourceExhaused',
      retry_after_s: 60,
    });
    const r = await h().call('GET', '/api/v1/providers/custom');
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('ResourceExhaused');
    expect(r.headers.get('retry-after')).toBe('60');
    await h().call('POST', '/_emulator/faults', { status: 502 });
    const gw = await h().call('GET', '/api/v1/providers/custom');
    expect(gw.status).toBe(502);
    expect(gw.body.code).toBe('Unavailable');
  });

  it('drops the connection', async () => {
    await h().call('POST', '/_emulator/faults', { path: '/api/v1/providers/custom', drop: true });
    expect(await rawGet(`${h().emu.url}/api/v1/providers/custom`, h().emu.adminKey)).toBe('dropped');
    expect(await rawGet(`${h().emu.url}/api/v1/providers/custom`, h().emu.adminKey)).toBe('answered');
    const calls = values<{ status: number | null }>(await h().call('GET', '/_emulator/calls'));
    expect(calls.map((c) => c.status)).toEqual([null, 200]);
  });

  it('adds latency and then answers normally', async () => {
    await h().call('POST', '/_emulator/faults', { latency_ms: 20 });
    expect((await h().call('GET', '/api/v1/providers/custom')).status).toBe(200);
  });

  it('lists, removes and clears faults, and rejects bad ones', async () => {
    const a = (await h().call('POST', '/_emulator/faults', { status: 503, count: 5 })).body.value;
    await h().call('POST', '/_emulator/faults', { status: 502 });
    expect((await h().call('GET', '/_emulator/faults')).body.values).toHaveLength(2);
    expect((await h().call('DELETE', `/_emulator/faults/${a.id}`)).status).toBe(200);
    expect((await h().call('DELETE', '/_emulator/faults')).status).toBe(200);
    expect((await h().call('GET', '/_emulator/faults')).body.values).toEqual([]);
    const bad = await h().call('POST', '/_emulator/faults', { status: 200, count: 0 });
    expect(bad.status).toBe(400);
    expect(violations(bad.body).map((v) => v.field)).toEqual(['count', 'status']);
    expect(violations((await h().call('POST', '/_emulator/faults', {})).body)[0]?.field).toBe('body');
  });
});

describe('clock', () => {
  const h = useEmulator();

  it('sets, freezes and advances the emulator time, which timestamps errors and events', async () => {
    const set = await h().call('POST', '/_emulator/clock', { set: '2030-01-01T00:00:00Z', frozen: true });
    expect(set.body).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true });
    const adv = await h().call('POST', '/_emulator/clock', { advance_ms: 90_000 });
    expect(adv.body.now).toBe('2030-01-01T00:01:30.000Z');
    const err = await h().call('GET', '/api/v1/providers/custom/none');
    expect(err.body.timestamp).toBe('2030-01-01T00:01:30.000Z');
    const t = await h().target();
    const events = values<{ entity_id: string; timestamp: string }>(
      await h().call('GET', '/_emulator/events'),
    );
    expect(events.find((e) => e.entity_id === t.dataSourceId)?.timestamp).toBe('2030-01-01T00:01:30.000Z');
    expect((await h().call('POST', '/_emulator/clock', { frozen: false })).body.frozen).toBe(false);
    expect(violations((await h().call('POST', '/_emulator/clock', { set: 'tomorrow' })).body)[0]?.field).toBe(
      'set',
    );
  });
});

describe('calls', () => {
  const h = useEmulator();

  it('records API calls without headers, filters them, and resets', async () => {
    const t = await h().target();
    await h().push(t.base, samplePayload());
    const pushes = (await h().call('GET', '/_emulator/calls?method=post&path=*:push')).body.values;
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ method: 'POST', status: 200, path: `${t.base}:push` });
    const all = await h().call('GET', '/_emulator/calls');
    expect(JSON.stringify(all.body)).not.toContain(h().emu.adminKey);
    expect(values<{ path: string }>(all).every((c) => !c.path.startsWith('/_emulator'))).toBe(true);
    await h().call('DELETE', '/_emulator/calls');
    expect((await h().call('GET', '/_emulator/calls')).body.values).toEqual([]);
  });
});
