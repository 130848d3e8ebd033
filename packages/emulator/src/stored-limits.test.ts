/**
 * The caps on what the emulator keeps between requests (`limits.ts`), over HTTP against a real
 * emulator started with small caps: open multipart uploads per key, faults, API keys (each refused
 * past its cap with a 400 that names the cap and what to free), console sessions per user (a sign-in
 * ends the user's oldest) and stored events (the oldest pruned). Past each cap, what was there goes
 * on working.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmulatorClock } from './clock.js';
import { DEFAULT_UPLOAD_SESSION_TTL_MS, startEmulator } from './server.js';
import { DEFAULT_LIMITS, resolveLimits } from './limits.js';
import {
  onlyViolation,
  samplePayload,
  useEmulator,
  values,
  type Harness,
} from './private-test-helpers/harness.js';
import { signInToConsole } from './testing/console-session.js';

const EVENTS = '/api/preview/events';

describe('limits option', () => {
  it('keeps the default of every cap left out and refuses a cap that is not a positive integer, naming it', () => {
    expect(resolveLimits({ maxFaults: 3 })).toEqual({ ...DEFAULT_LIMITS, maxFaults: 3 });
    expect(() => resolveLimits({ maxEvents: 0 })).toThrow(
      'limits.maxEvents must be an integer of at least 1, not 0',
    );
    expect(() => resolveLimits({ maxApiKeys: 2.5 })).toThrow('limits.maxApiKeys must be an integer');
    expect(() => resolveLimits({ maxFaults: '5' } as never)).toThrow(
      'limits.maxFaults must be an integer of at least 1, not a string',
    );
    expect(() => resolveLimits({ maxUploads: 3 } as never)).toThrow(
      'limits.maxUploads is not a limit of the emulator',
    );
  });

  it('refuses to start with a bad cap', async () => {
    await expect(startEmulator({ limits: { maxSessionsPerUser: -1 } })).rejects.toThrow(
      'limits.maxSessionsPerUser must be an integer of at least 1',
    );
  });
});

describe('open multipart uploads per API key', () => {
  const clock = new EmulatorClock();
  const h = useEmulator({ clock, limits: { maxOpenUploadsPerKey: 2 } });

  const start = (base: string, key?: string) =>
    h().call('POST', `${base}:parts`, { operation: 'start' }, key === undefined ? {} : { key });
  const send = async (base: string, uploadId: string) => {
    const data = Buffer.from(JSON.stringify(samplePayload())).toString('base64');
    const up = await h().call('POST', `${base}:parts`, {
      operation: 'upload',
      upload_id: uploadId,
      sequence_number: 1,
      data,
    });
    expect(up.status).toBe(200);
    return h().call('POST', `${base}:parts`, {
      operation: 'complete',
      upload_id: uploadId,
      sequence_count: 1,
    });
  };

  it('refuses a start past the cap, naming it; the open uploads still complete, and completing one frees its place', async () => {
    const t = await h().target();
    const other = await h().target();
    const first = (await start(t.base)).body.upload_id as string;
    // The cap counts the key's uploads on every data source.
    const second = (await start(other.base)).body.upload_id as string;
    expect(second).toMatch(/^[0-9a-f-]{36}$/);

    const refused = onlyViolation(await start(t.base));
    expect(refused.field).toBe('operation');
    expect(refused.description).toBe(
      'at most 2 multipart uploads may be open at once per API key: complete one first (operation complete), or let an abandoned one expire after 3600 s without activity',
    );

    const done = await send(t.base, first);
    expect(done.status).toBe(200);
    expect((await h().call('GET', t.base)).body.value.status).toBe('SUCCESS');
    // A completed upload no longer counts (its answer is still repeated to a retried complete).
    const third = await start(t.base);
    expect(third.status).toBe(200);
    expect((await send(other.base, second)).status).toBe(200);
    expect((await send(t.base, third.body.upload_id as string)).status).toBe(200);
    const repeated = await h().call('POST', `${t.base}:parts`, {
      operation: 'complete',
      upload_id: first,
      sequence_count: 1,
    });
    expect(repeated.body).toEqual(done.body);
  });

  it('counts each key on its own, and frees the place of an upload that expired', async () => {
    const t = await h().target();
    const member = (await h().call('POST', '/_emulator/api_keys', { role: 'member', name: 'ci' })).body.value
      .key as string;
    expect((await start(t.base)).status).toBe(200);
    expect((await start(t.base)).status).toBe(200);
    expect((await start(t.base)).status).toBe(400);
    // Another key has its own uploads.
    expect((await start(t.base, member)).status).toBe(200);
    expect((await start(t.base, member)).status).toBe(200);
    expect(onlyViolation(await start(t.base, member)).field).toBe('operation');
    // Abandoned uploads expire after an hour without activity (emulator clock), and free their places.
    clock.advance(DEFAULT_UPLOAD_SESSION_TTL_MS + 1000);
    const again = await start(t.base);
    expect(again.status).toBe(200);
    expect((await send(t.base, again.body.upload_id as string)).status).toBe(200);
  });
});

describe('faults', () => {
  const h = useEmulator({ limits: { maxFaults: 2 } });

  it('refuses a fault past the cap, naming it; the registered ones still fire, and one used up frees its place', async () => {
    const once = await h().call('POST', '/_emulator/faults', {
      path: '/api/v1/providers/custom',
      status: 503,
    });
    expect(once.status).toBe(200);
    expect(
      (await h().call('POST', '/_emulator/faults', { method: 'DELETE', path: '/never', status: 502 })).status,
    ).toBe(200);

    const refused = onlyViolation(await h().call('POST', '/_emulator/faults', { status: 500 }));
    expect(refused.field).toBe('body');
    expect(refused.description).toBe(
      'at most 2 faults may be registered at once: remove one first (DELETE /_emulator/faults/{id}, or DELETE /_emulator/faults for all)',
    );
    // The refused fault (any path) was not registered: other calls are answered as usual.
    expect((await h().call('GET', EVENTS)).status).toBe(200);
    expect(values(await h().call('GET', '/_emulator/faults'))).toHaveLength(2);

    // The first fault fires once, then is gone, which frees a place.
    expect((await h().call('GET', '/api/v1/providers/custom')).status).toBe(503);
    expect((await h().call('GET', '/api/v1/providers/custom')).status).toBe(200);
    expect((await h().call('POST', '/_emulator/faults', { path: '/api/v1/*', status: 504 })).status).toBe(
      200,
    );
    expect((await h().call('GET', '/api/v1/providers/custom')).status).toBe(504);
    expect((await h().call('DELETE', '/_emulator/faults')).status).toBe(200);
    expect((await h().call('POST', '/_emulator/faults', { status: 500 })).status).toBe(200);
  });

  it('refuses an over-long path pattern or message, naming the field', async () => {
    const path = onlyViolation(
      await h().call('POST', '/_emulator/faults', { path: `/${'a'.repeat(2048)}`, status: 503 }),
    );
    expect(path).toEqual({
      field: 'path',
      description: 'must be a path pattern of at most 2048 characters; * matches any characters',
    });
    const message = onlyViolation(
      await h().call('POST', '/_emulator/faults', { status: 503, message: 'm'.repeat(2049) }),
    );
    expect(message).toEqual({ field: 'message', description: 'must be a string of at most 2048 characters' });
    expect(values(await h().call('GET', '/_emulator/faults'))).toEqual([]);
  });
});

describe('API keys', () => {
  // The admin key generated at start is one of the three.
  const h = useEmulator({ limits: { maxApiKeys: 3 } });
  const create = (name: string) => h().call('POST', '/_emulator/api_keys', { role: 'member', name });

  it('refuses a key past the cap, naming it (revoked keys count); the stored keys still work, and deleting one frees its place', async () => {
    const a = (await create('a')).body.value;
    const b = (await create('b')).body.value;
    expect((await h().call('POST', `/_emulator/api_keys/${b.id}/revoke`, {})).status).toBe(200);

    const refused = onlyViolation(await create('c'));
    expect(refused.field).toBe('body');
    expect(refused.description).toBe(
      'at most 3 API keys may be stored, revoked ones included: delete one first (DELETE /_emulator/api_keys/{id})',
    );
    const listed = values<{ name: string }>(await h().call('GET', '/_emulator/api_keys'));
    expect(listed.map((k) => k.name)).toEqual(['generated at start', 'a', 'b']);
    const created = values<{ entity_name: string }>(
      await h().call('GET', `${EVENTS}?filter=${encodeURIComponent('event_type eq "API_KEY_CREATED"')}`),
    );
    expect(created.map((e) => e.entity_name)).toEqual(['a', 'b']);

    // The stored keys work as before.
    expect((await h().call('GET', '/api/v1/providers/custom', undefined, { key: a.key })).status).toBe(200);
    expect((await h().call('POST', `/_emulator/api_keys/${b.id}/reinstate`, {})).status).toBe(200);
    expect((await h().call('GET', '/api/v1/providers/custom', undefined, { key: b.key })).status).toBe(200);

    expect((await h().call('DELETE', `/_emulator/api_keys/${b.id}`)).status).toBe(200);
    const c = await create('c');
    expect(c.status).toBe(200);
    expect(
      (await h().call('GET', '/api/v1/providers/custom', undefined, { key: c.body.value.key })).status,
    ).toBe(200);
  });
});

describe('console sessions per user', () => {
  const h = useEmulator({ limits: { maxSessionsPerUser: 2 } });
  const PASSWORD = 'correct horse battery';
  const user = async (email: string) => {
    const r = await h().call('POST', '/_emulator/users', {
      email,
      given_name: 'Ada',
      family_name: 'Lovelace',
      password: PASSWORD,
    });
    expect(r.status).toBe(200);
  };
  const signIn = (email: string) => signInToConsole({ url: h().emu.url, email, password: PASSWORD });
  /** The status of `GET /console/session` with `cookie`: 200 signed in, 303 to the sign-in page. */
  const sessionStatus = async (cookie: string) =>
    (
      await fetch(`${h().emu.url}/console/session`, {
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
        redirect: 'manual',
      })
    ).status;

  it('ends the oldest session of a user when a sign-in passes the cap, says so in the event, and leaves the others', async () => {
    await user('ada@example.com');
    await user('grace@example.com');
    const grace = await signIn('grace@example.com');
    const first = await signIn('ada@example.com');
    const second = await signIn('ada@example.com');
    expect(await sessionStatus(first.cookie)).toBe(200);

    const third = await signIn('ada@example.com');
    expect(await sessionStatus(first.cookie)).toBe(303);
    expect(await sessionStatus(second.cookie)).toBe(200);
    expect(await sessionStatus(third.cookie)).toBe(200);
    // Another user's session is not touched.
    expect(await sessionStatus(grace.cookie)).toBe(200);

    // The remaining sessions act as the admin key on the API, as before.
    const keys = await fetch(`${h().emu.url}/_emulator/api_keys`, {
      headers: { cookie: second.cookie, 'x-csrf-token': second.csrfToken },
    });
    expect(keys.status).toBe(200);

    const logins = values<{ entity_name: string; message: string }>(
      await h().call('GET', `${EVENTS}?filter=${encodeURIComponent('event_type eq "USER_LOGIN"')}`),
    );
    expect(logins.map((e) => e.message)).toEqual([
      'User grace@example.com signed in to the console',
      'User ada@example.com signed in to the console',
      'User ada@example.com signed in to the console',
      'User ada@example.com signed in to the console; their oldest session was ended (at most 2 sessions per user)',
    ]);
  });
});

describe('stored events', () => {
  const h = useEmulator({ limits: { maxEvents: 3 } });
  /** Records one API_KEY_CREATED event per name. */
  const keys = async (harness: Harness, names: string[]) => {
    for (const name of names)
      expect((await harness.call('POST', '/_emulator/api_keys', { role: 'member', name })).status).toBe(200);
  };
  const stored = async (harness: Harness) =>
    values<{ entity_name: string }>(await harness.call('GET', EVENTS)).map((e) => e.entity_name);

  it('keeps the newest events past the cap, oldest pruned first, and an export continues with the next one', async () => {
    await keys(h(), ['k1', 'k2', 'k3']);
    const exported = await h().call('GET', '/api/v1/events/export');
    expect(exported.body.events.map((e: { entity_name: string }) => e.entity_name)).toEqual([
      'k1',
      'k2',
      'k3',
    ]);

    await keys(h(), ['k4', 'k5']);
    expect(await stored(h())).toEqual(['k3', 'k4', 'k5']);
    const view = values<{ entity_name: string }>(await h().call('GET', '/_emulator/events'));
    expect(view.map((e) => e.entity_name)).toEqual(['k3', 'k4', 'k5']);

    // The export's cursor goes on from where it was: k4 and k5 (k3 it had already read).
    const next = await h().call(
      'GET',
      `/api/v1/events/export?page_token=${encodeURIComponent(exported.body.next_page_token as string)}`,
    );
    expect(next.body.events.map((e: { entity_name: string }) => e.entity_name)).toEqual(['k4', 'k5']);
    // Events of another kind keep coming and pushing out the oldest.
    const t = await h().target();
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
    expect(values<{ event_type: string }>(await h().call('GET', EVENTS)).map((e) => e.event_type)).toEqual([
      'DATASOURCE_REGISTERED',
      'OAA_PUSH',
      'DATASOURCE_PARSED',
    ]);
  });
});

describe('stored events in a database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oaa-event-cap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** An application payload of at least 16 MB of JSON: pushed on the database worker's connection. */
  function bulkPayload(): Record<string, unknown> {
    const note = 'n'.repeat(900);
    const users = Array.from({ length: 18_000 }, (_, i) => ({
      name: `user${i}`,
      identities: [`user${i}@example.com`],
      custom_properties: { note },
    }));
    return samplePayload({
      custom_property_definition: {
        applications: [{ application_type: 'acme', local_user_properties: { note: 'STRING' } }],
      },
      applications: [{ name: 'acme', application_type: 'acme', local_users: users }],
      permissions: [],
      identity_to_permissions: [],
    });
  }

  it('applies a lower cap at start, and a bulk push written by the worker connection prunes to it too', async () => {
    const file = join(dir, 'emulator.db');
    const call = async (
      emu: { url: string; adminKey: string },
      method: string,
      path: string,
      body?: unknown,
    ) => {
      const res = await fetch(emu.url + path, {
        method,
        headers: { authorization: `Bearer ${emu.adminKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const names = async (emu: { url: string; adminKey: string }) =>
      ((await call(emu, 'GET', EVENTS)).body.values as { event_type: string; entity_name: string }[]).map(
        (e) => `${e.event_type} ${e.entity_name}`,
      );

    const first = await startEmulator({ dbPath: file, limits: { maxEvents: 10 } });
    try {
      for (const name of ['k1', 'k2', 'k3', 'k4'])
        expect((await call(first, 'POST', '/_emulator/api_keys', { name })).status).toBe(200);
      expect(await names(first)).toHaveLength(4);
    } finally {
      await first.close();
    }

    const second = await startEmulator({ dbPath: file, limits: { maxEvents: 3 } });
    try {
      expect(await names(second)).toEqual(['API_KEY_CREATED k2', 'API_KEY_CREATED k3', 'API_KEY_CREATED k4']);
      const provider = (
        await call(second, 'POST', '/api/v1/providers/custom', {
          name: 'bulk',
          custom_template: 'application',
        })
      ).body.value.id as string;
      const ds = (
        await call(second, 'POST', `/api/v1/providers/custom/${provider}/datasources`, {
          id: provider,
          name: 'ds',
        })
      ).body.value.id as string;
      const json = JSON.stringify(bulkPayload());
      expect(json.length).toBeGreaterThan(16 * 1024 * 1024);
      const pushed = await call(
        second,
        'POST',
        `/api/v1/providers/custom/${provider}/datasources/${ds}:push`,
        {
          id: provider,
          data_source_id: ds,
          json_data: json,
        },
      );
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
      expect((await names(second)).map((n) => n.split(' ')[0])).toEqual([
        'DATASOURCE_REGISTERED',
        'OAA_PUSH',
        'DATASOURCE_PARSED',
      ]);
      const stats = (await call(second, 'GET', `/_emulator/graph/stats?data_source_id=${ds}`)).body;
      expect(stats.nodes['OAA.acme.User']).toBe(18_000);
    } finally {
      await second.close();
    }
  });
});
