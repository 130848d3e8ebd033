/**
 * Every registered route, under every spelling of its path, refuses callers its
 * declared access does not admit, and nothing changes. The routes come from the app itself, so a
 * route added later is walked without touching this file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../db/sqlite.js';
import type { Db } from '../db/schema.js';
import { startEmulator, type RunningEmulator } from '../server.js';
import { samplePayload } from '../private-test-helpers/harness.js';
import { ROLES, type Role } from './api-keys.js';
import { requireRouteAccess, type DeclaredRoute } from './route-access.js';

const KEYS: Record<Role, string> = {
  admin: 'walk-admin-key',
  system_monitoring: 'walk-monitoring-key',
  member: 'walk-member-key',
};
// What a successful call would act on: a new admin key, a moved clock, a configuration value.
const BODY = JSON.stringify({ role: 'admin', name: 'walked', value: 'email', advance_ms: 86_400_000 });

interface Spelling {
  name: string;
  path: string;
  /** Whether the router still matches the route (otherwise the answer is the 404 handler's). */
  matches: boolean;
}

const hex = (c: string, lower: boolean): string => {
  const h = c.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${lower ? h.toLowerCase() : h.toUpperCase()}`;
};

/** The path as sent, and re-spelled in ways a prefix test on the raw URL would not recognise. */
function spellings(path: string): Spelling[] {
  const encodeAll = (lowerEvery: number): string => {
    let n = 0;
    return path.replace(/[A-Za-z_]/g, (c) => hex(c, lowerEvery > 0 && n++ % lowerEvery === 0));
  };
  const [first = '', ...rest] = path.slice(1).split('/');
  const colon: Spelling[] = path.includes(':')
    ? [{ name: 'colon encoded', path: path.replaceAll(':', '%3A'), matches: false }]
    : [];
  return [
    { name: 'as registered', path, matches: true },
    { name: 'letters and _ encoded', path: encodeAll(0), matches: true },
    { name: 'mixed-case hex', path: encodeAll(2), matches: true },
    { name: 'lower-case hex', path: encodeAll(1), matches: true },
    {
      name: 'first character encoded',
      path: `/${hex(first[0] ?? '', false)}${path.slice(2)}`,
      matches: true,
    },
    { name: 'trailing slash', path: `${path}/`, matches: true },
    { name: 'leading double slash', path: `/${path}`, matches: false },
    { name: 'inner double slash', path: `/${first}//${rest.join('/')}`, matches: false },
    { name: 'encoded slashes', path: `/${first}%2F${rest.join('%2F')}`, matches: false },
    ...colon,
  ];
}

describe('route access: every route, every spelling', () => {
  let dir: string;
  let emu: RunningEmulator;
  let db: Db;
  let revokedAdminKey: string;
  const ids: Record<string, string> = {};

  const call = async (
    method: string,
    path: string,
    key: string | null,
    body?: unknown,
  ): Promise<Response> => {
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    const withBody = !['GET', 'HEAD'].includes(method);
    if (withBody) headers['content-type'] = 'application/json';
    const payload = body === undefined ? BODY : JSON.stringify(body);
    return fetch(emu.url + path, { method, headers, ...(withBody ? { body: payload } : {}) });
  };
  const admin = async (method: string, path: string, body?: unknown): Promise<any> => {
    const r = await call(method, path, KEYS.admin, body);
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };

  /** Everything a call could change: every table, and the controls kept in memory. */
  const snapshot = async (): Promise<string> => {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all();
    const calls = (await admin('GET', '/_emulator/calls')) as { values: { seq: number }[] };
    return JSON.stringify({
      tables: tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]),
      faults: await admin('GET', '/_emulator/faults'),
      clock: await admin('GET', '/_emulator/clock'),
      firstCall: calls.values[0]?.seq,
    });
  };

  /** A concrete path for a route pattern, naming things that exist so a call that got through would act. */
  const concrete = (route: string): string =>
    route.replace(/::|:([A-Za-z0-9_]+)|\*/g, (part, name: string | undefined) => {
      if (part === '::') return ':';
      if (route.startsWith('/_emulator/api_keys/')) return ids.adminKey!;
      if (route.startsWith('/_emulator/faults/')) return ids.fault!;
      if (name === 'ds') return ids.dataSource!;
      if (name === 'id') return ids.provider!;
      return 'x';
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'oaa-route-access-'));
    const dbPath = join(dir, 'emulator.db');
    emu = await startEmulator({ dbPath, apiKeys: ROLES.map((role) => ({ key: KEYS[role], role })) });
    db = new Database(dbPath, { readonly: true });

    // The key a refused DELETE would revoke: not the one the test itself uses.
    ids.adminKey = (await admin('POST', '/_emulator/api_keys', { role: 'admin', name: 'target' })).value.id;
    const revoked = (await admin('POST', '/_emulator/api_keys', { role: 'admin', name: 'revoked' })).value;
    await admin('DELETE', `/_emulator/api_keys/${revoked.id}`);
    revokedAdminKey = revoked.key;

    const created = await admin('POST', '/api/v1/providers/custom', {
      name: 'walk',
      custom_template: 'application',
    });
    ids.provider = created.value.id;
    const base = `/api/v1/providers/custom/${ids.provider}/datasources`;
    ids.dataSource = (await admin('POST', base, { id: ids.provider, name: 'walk ds' })).value.id;
    await admin('POST', `${base}/${ids.dataSource}:push`, {
      id: ids.provider,
      data_source_id: ids.dataSource,
      json_data: JSON.stringify(samplePayload()),
    });
    ids.fault = (
      await admin('POST', '/_emulator/faults', { method: 'PATCH', path: '/never/called', status: 503 })
    ).value.id;
    await admin('POST', '/_emulator/clock', { frozen: true });
  });

  afterAll(async () => {
    db?.close();
    await emu?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists every route with a declared access', async () => {
    const routes = (await admin('GET', '/_emulator/routes')).values as DeclaredRoute[];
    const names = routes.map((r) => `${r.method} ${r.url}`);
    for (const name of [
      'POST /_emulator/api_keys',
      'GET /_emulator/routes',
      'HEAD /api/v1/providers/custom',
      'PUT /api/private/namespaces/integrations/configurations/idp_sso_user_matching_property',
    ])
      expect(names).toContain(name);
    expect(routes.find((r) => r.url === '/_emulator/clock')?.access).toEqual(['admin']);
  });

  it('refuses no key, a revoked key and every role the route does not allow, under every spelling', async () => {
    const routes = (await admin('GET', '/_emulator/routes')).values as DeclaredRoute[];
    const failures: string[] = [];
    for (const route of routes) {
      if (route.access === 'public') continue;
      if (route.access === 'session' || route.access === 'oauth_token') continue; // see below
      const denied = ROLES.filter((role) => !route.access.includes(role));
      const before = await snapshot();
      const checks = spellings(concrete(route.url)).flatMap((s) => [
        { s, key: null as string | null, who: 'no key', want: [401] },
        { s, key: revokedAdminKey, who: 'revoked admin key', want: [401] },
        ...denied.map((role) => ({
          s,
          key: KEYS[role],
          who: `${role} key`,
          want: s.matches ? [403] : [403, 404],
        })),
      ]);
      const answers = await Promise.all(checks.map((c) => call(route.method, c.s.path, c.key)));
      for (const [i, r] of answers.entries()) {
        const c = checks[i]!;
        if (!c.want.includes(r.status))
          failures.push(
            `${route.method} ${c.s.path} (${c.s.name}, ${c.who}): ${r.status}, wanted ${c.want.join('/')}`,
          );
        const body = route.method === 'HEAD' ? undefined : ((await r.json()) as { request_id?: string });
        if (body && body.request_id !== r.headers.get('x-request-id'))
          failures.push(`${route.method} ${c.s.path} (${c.who}): request_id differs from x-request-id`);
      }
      if ((await snapshot()) !== before)
        failures.push(`${route.method} ${route.url}: refused calls changed the state`);
    }
    expect(failures).toEqual([]);
    // About a thousand requests: generous room for a loaded machine.
  }, 180_000);
});

describe('route access: console-session and OAuth2 access-token routes', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ apiKeys: ROLES.map((role) => ({ key: KEYS[role], role })) });
  });
  afterAll(() => emu?.close());

  it('sends a page request without a session to sign-in, refuses other methods, and takes no API key', async () => {
    const routes = (
      (await (
        await fetch(`${emu.url}/_emulator/routes`, { headers: { authorization: `Bearer ${KEYS.admin}` } })
      ).json()) as { values: DeclaredRoute[] }
    ).values;
    const session = routes.filter((r) => r.access === 'session');
    expect(session.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['POST /console/logout', 'GET /console/session']),
    );
    const failures: string[] = [];
    for (const route of session) {
      for (const key of [null, KEYS.admin]) {
        const r = await fetch(emu.url + route.url.replace(/:([A-Za-z0-9_]+)/g, 'x'), {
          method: route.method,
          redirect: 'manual',
          headers: key === null ? {} : { authorization: `Bearer ${key}` },
        });
        const page = route.method === 'GET' || route.method === 'HEAD';
        const ok = page
          ? r.status === 303 && (r.headers.get('location') ?? '').startsWith('/console/login?next=')
          : r.status === 401;
        if (!ok)
          failures.push(
            `${route.method} ${route.url} (${key === null ? 'no key' : 'admin key'}): ${r.status}`,
          );
      }
    }
    for (const route of routes.filter((r) => r.access === 'oauth_token')) {
      expect(route.scopes.length).toBeGreaterThan(0);
      for (const key of [null, KEYS.admin]) {
        const r = await fetch(emu.url + route.url, {
          method: route.method,
          headers: key === null ? {} : { authorization: `Bearer ${key}` },
        });
        if (r.status !== 401) failures.push(`${route.method} ${route.url}: ${r.status}, wanted 401`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets OAA routes take access tokens of the oaa:integrations scope and admin routes none', async () => {
    const routes = (
      (await (
        await fetch(`${emu.url}/_emulator/routes`, { headers: { authorization: `Bearer ${KEYS.admin}` } })
      ).json()) as { values: DeclaredRoute[] }
    ).values;
    const find = (method: string, url: string) => routes.find((r) => r.method === method && r.url === url);
    expect(find('GET', '/api/v1/providers/custom')?.scopes).toEqual(['oaa:integrations']);
    expect(find('POST', '/_emulator/api_keys')?.scopes).toEqual([]);
  });
});

describe('requireRouteAccess', () => {
  it('stops an app whose route declares no access, naming the route', async () => {
    const app = Fastify();
    requireRouteAccess(app);
    expect(() => app.get('/undeclared', () => ({}))).toThrow(/GET \/undeclared declares no access/);
    expect(() => app.get('/empty', { config: { allow: [] } }, () => ({}))).toThrow(/declares no access/);
    expect(() => app.get('/scoped', { config: { allow: 'oauth_token' } }, () => ({}))).toThrow(
      /names no scope/,
    );
    expect(() =>
      app.get('/odd', { config: { allow: 'public', scopes: ['openid' as never] } }, () => ({})),
    ).toThrow(/unknown OAuth2 scopes/);
    await app.close();
  });
});
