/**
 * The headers every answer carries (nosniff, a Referrer-Policy), `Cache-Control: no-store` on the
 * console's answers, and Strict-Transport-Security under TLS. Over HTTP against a real emulator,
 * walking every route the emulator declares, signed in and not.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole } from '../testing/console-session.js';
import { startTestEmulator, type TestEmulator } from '../testing/test-emulator.js';

const USER = {
  email: 'ada@example.com',
  given_name: 'Ada',
  family_name: 'Lovelace',
  password: 'headers and all',
};

interface Seen {
  what: string;
  status: number;
  headers: Headers;
}

describe('security headers', () => {
  let emu: TestEmulator;
  let session: { cookie: string; csrfToken: string };
  beforeAll(async () => {
    emu = await startTestEmulator();
    await emu.admin.users.create(USER);
    session = await signInToConsole({ url: emu.url, email: USER.email, password: USER.password });
  });
  afterAll(() => emu?.close());

  const get = async (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Seen> => {
    const r = await fetch(emu.url + path, { method, headers, redirect: 'manual' });
    await r.arrayBuffer();
    return {
      what: `${method} ${path} ${JSON.stringify(Object.keys(headers))}`,
      status: r.status,
      headers: r.headers,
    };
  };

  it('sends nosniff and a Referrer-Policy on every answer: each route, errors, the router’s own', async () => {
    const listed = await fetch(`${emu.url}/_emulator/routes`, {
      headers: { authorization: `Bearer ${emu.adminKey}` },
    });
    const routes = ((await listed.json()) as { values: { method: string; url: string }[] }).values;
    expect(routes.length).toBeGreaterThan(50);
    const seen: Seen[] = [];
    for (const route of routes) {
      if (route.method === 'HEAD') continue;
      const path = route.url.replaceAll('::', ':').replace(/:([A-Za-z_]+)/g, 'x');
      // Without credentials, with the admin key (reads only), and as the signed-in console.
      seen.push(await get(path, {}, route.method));
      if (route.method === 'GET') {
        seen.push(await get(path, { authorization: `Bearer ${emu.adminKey}` }));
        seen.push(
          await get(path, {
            cookie: session.cookie,
            'x-csrf-token': session.csrfToken,
            'sec-fetch-site': 'same-origin',
          }),
        );
      }
    }
    seen.push(await get('/no/such/path'));
    seen.push(await get('/api/v1/providers/custom/%E0%A4%A'));
    seen.push(
      await get(`/api/v1/providers/custom/${'x'.repeat(200)}`, { authorization: `Bearer ${emu.adminKey}` }),
    );
    const statuses = new Set(seen.map((s) => s.status));
    for (const status of [200, 303, 400, 401, 403, 404]) expect(statuses).toContain(status);
    for (const s of seen) {
      expect(s.headers.get('x-content-type-options'), s.what).toBe('nosniff');
      expect(s.headers.get('referrer-policy'), s.what).toMatch(/^(no-referrer|same-origin)$/);
      expect(s.headers.get('strict-transport-security'), s.what).toBeNull();
    }
  });

  it('marks the console’s answers and API calls made with a console session no-store', async () => {
    const signedIn = {
      cookie: session.cookie,
      'x-csrf-token': session.csrfToken,
      'sec-fetch-site': 'same-origin',
    };
    for (const s of [
      await get('/console/login'),
      await get('/console/providers', signedIn),
      await get('/console/session', signedIn),
      await get('/console/api/providers', signedIn),
      await get('/console/api/graph?data_source_id=none', signedIn),
      await get('/_emulator/api_keys', signedIn),
      await get('/api/v1/providers/custom', signedIn),
    ]) {
      expect(s.status, s.what).toBeLessThan(500);
      expect(s.headers.get('cache-control'), s.what).toBe('no-store');
    }
    // The bundle holds no data, and may be cached.
    expect((await get('/console/assets/app.js')).headers.get('cache-control')).toBeNull();
  });
});

describe('security headers over TLS', () => {
  it('sends Strict-Transport-Security on every answer', async () => {
    const emu = await startTestEmulator({ tls: true });
    const https = await import('node:https');
    const head = (path: string): Promise<IncomingHttpHeaders> =>
      new Promise((resolve, reject) => {
        https
          .get(`${emu.url}${path}`, { rejectUnauthorized: false }, (res) => {
            res.resume();
            resolve(res.headers);
          })
          .on('error', reject);
      });
    try {
      for (const path of [
        '/console/login',
        '/api/v1/providers/custom',
        '/no/such/path',
        '/console/assets/app.js',
      ]) {
        const headers = await head(path);
        expect(headers['strict-transport-security'], path).toBe('max-age=3600');
        expect(headers['x-content-type-options'], path).toBe('nosniff');
      }
    } finally {
      await emu.close();
    }
  });
});
