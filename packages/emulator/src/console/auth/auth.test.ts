/**
 * Console users under /_emulator/users, the sign-in page, sessions on the emulator
 * clock, the CSRF token, sign-out. Over HTTP against a real emulator.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorClock } from '../../clock.js';
import { cookiesOf, hiddenField, signInToConsole } from '../../testing/console-session.js';
import { startTestEmulator, type TestEmulator } from '../../testing/test-emulator.js';

const PASSWORD = 'correct horse battery';

describe('console users and sign-in', () => {
  let emu: TestEmulator;
  const admin = async (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(emu.url + path, {
      method,
      headers: { authorization: `Bearer ${emu.adminKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    emu = await startTestEmulator();
    const r = await admin('POST', '/_emulator/users', {
      email: 'Ada@Example.com',
      given_name: 'Ada',
      family_name: 'Lovelace',
      password: PASSWORD,
    });
    expect(r.status).toBe(200);
  });
  afterAll(() => emu?.close());

  it('creates, lists and deletes users without ever answering the password', async () => {
    const created = await admin('POST', '/_emulator/users', {
      email: 'grace@example.com',
      given_name: 'Grace',
      family_name: 'Hopper',
      password: 'another password',
    });
    const user = ((await created.json()) as { value: Record<string, string> }).value;
    expect(user).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper' });
    const listed = await (await admin('GET', '/_emulator/users')).text();
    expect(listed).toContain('grace@example.com');
    expect(listed).not.toContain('another password');
    expect(listed).not.toContain('scrypt');
    expect((await admin('DELETE', `/_emulator/users/${user.sub}`)).status).toBe(200);
    expect((await admin('GET', `/_emulator/users/${user.sub}`)).status).toBe(404);
    const events = await emu.admin.events({ eventType: 'USER_CREATED' });
    expect(events.map((e) => e.entity_name)).toContain('grace@example.com');
    expect((await emu.admin.events({ eventType: 'USER_DELETED' })).length).toBe(1);
  });

  it('refuses bad user input naming the field, and a taken email', async () => {
    const r = await admin('POST', '/_emulator/users', {
      email: 'not-an-email',
      given_name: '',
      family_name: 'x'.repeat(101),
      password: 'short',
      role: 'admin',
    });
    expect(r.status).toBe(400);
    const fields = ((await r.json()) as { details: { field_violations?: { field: string }[] }[] }).details
      .flatMap((d) => d.field_violations ?? [])
      .map((v) => v.field);
    expect(fields).toEqual(
      expect.arrayContaining(['email', 'given_name', 'family_name', 'password', 'role']),
    );
    const taken = await admin('POST', '/_emulator/users', {
      email: 'ada@example.com',
      given_name: 'A',
      family_name: 'L',
      password: PASSWORD,
    });
    expect(taken.status).toBe(400);
    // Users are admin-only.
    const member = await fetch(`${emu.url}/_emulator/users`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    expect(member.status).toBe(403);
  });

  it('serves an accessible sign-in form and refuses a wrong password', async () => {
    const page = await fetch(`${emu.url}/console/login`);
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('<label for="email">');
    expect(html).toContain('<label for="password">');
    const cookie = Object.entries(cookiesOf(page))
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    const post = (password: string, token = hiddenField(html, 'csrf_token') ?? '') =>
      fetch(`${emu.url}/console/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({
          csrf_token: token,
          next: '/console',
          email: 'ada@example.com',
          password,
        }),
      });
    const wrong = await post('wrong password');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong email or password');
    expect(cookiesOf(wrong).oaa_emulator_session).toBeUndefined();
    // The login form's own CSRF token must match its cookie.
    const forged = await post(PASSWORD, 'forged');
    expect(forged.status).toBe(403);
    expect(cookiesOf(forged).oaa_emulator_session).toBeUndefined();
  });

  it('bounds form bodies, naming the limit', async () => {
    const r = await fetch(`${emu.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=${'a'.repeat(70_000)}`,
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(await r.json())).toContain('a form body may have at most 65536 bytes');
    const many = await fetch(`${emu.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Array.from({ length: 101 }, (_, i) => `f${i}=x`).join('&'),
    });
    expect(many.status).toBe(400);
    expect(JSON.stringify(await many.json())).toContain('at most 100 fields');
  });

  it('signs in with a HttpOnly SameSite=Lax session cookie and goes back to a same-origin next only', async () => {
    const page = await fetch(`${emu.url}/console/login?next=${encodeURIComponent('/console/apps?x=1')}`);
    const html = await page.text();
    const cookie = Object.entries(cookiesOf(page))
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    const res = await fetch(`${emu.url}/console/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({
        csrf_token: hiddenField(html, 'csrf_token') ?? '',
        next: hiddenField(html, 'next') ?? '',
        email: 'ADA@example.com',
        password: PASSWORD,
      }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/apps?x=1');
    const line = res.headers.getSetCookie().find((l) => l.startsWith('oaa_emulator_session='))!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/Secure/); // plain HTTP here; see the TLS test

    for (const next of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const s = await signInToConsole({ url: emu.url, email: 'ada@example.com', password: PASSWORD, next });
      expect(s.location).toBe('/console');
    }
    expect((await emu.admin.events({ eventType: 'USER_LOGIN' })).length).toBeGreaterThan(0);
  });

  it('binds the CSRF token to the session and signs out', async () => {
    const s = await signInToConsole({ url: emu.url, email: 'ada@example.com', password: PASSWORD });
    const other = await signInToConsole({ url: emu.url, email: 'ada@example.com', password: PASSWORD });
    expect(other.csrfToken).not.toBe(s.csrfToken);
    const logout = (token: string | undefined, cookie = s.cookie) =>
      fetch(`${emu.url}/console/logout`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams(token === undefined ? {} : { csrf_token: token }),
      });
    expect((await logout(undefined)).status).toBe(403);
    expect((await logout(other.csrfToken)).status).toBe(403);
    const out = await logout(s.csrfToken);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/console/login');
    const after = await fetch(`${emu.url}/console/session`, {
      headers: { cookie: s.cookie, 'sec-fetch-site': 'same-origin' },
      redirect: 'manual',
    });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe(
      `/console/login?next=${encodeURIComponent('/console/session')}`,
    );
    // The other session lives on.
    expect(
      (
        await fetch(`${emu.url}/console/session`, {
          headers: { cookie: other.cookie, 'sec-fetch-site': 'same-origin' },
        })
      ).status,
    ).toBe(200);
    expect((await emu.admin.events({ eventType: 'USER_LOGOUT' })).length).toBe(1);
  });

  it('hands the CSRF token only to same-origin requests, not to the cookie alone', async () => {
    const s = await signInToConsole({ url: emu.url, email: 'ada@example.com', password: PASSWORD });
    const session = (headers: Record<string, string>) =>
      fetch(`${emu.url}/console/session`, { headers: { cookie: s.cookie, ...headers }, redirect: 'manual' });
    // The cookie alone, or sent by a page of another site or of another port of this host.
    for (const headers of [
      {},
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      { origin: 'http://127.0.0.1:1' },
      { origin: 'null' },
      // Fetch metadata decides when a browser sends it.
      { 'sec-fetch-site': 'same-site', origin: emu.url },
    ]) {
      const r = await session(headers);
      expect(r.status, JSON.stringify(headers)).toBe(403);
      const text = await r.text();
      expect(text).not.toContain(s.csrfToken);
      expect(text).toContain("only the console's own pages get the session's CSRF token");
    }
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { origin: emu.url }]) {
      const r = await session(headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(((await r.json()) as { csrf_token: string }).csrf_token).toBe(s.csrfToken);
    }
  });

  it('ends sessions after 12 hours of emulator time, and when the user is deleted', async () => {
    await admin('POST', '/_emulator/users', {
      email: 'temp@example.com',
      given_name: 'Temp',
      family_name: 'User',
      password: PASSWORD,
    });
    const s = await signInToConsole({ url: emu.url, email: 'temp@example.com', password: PASSWORD });
    const probe = async (cookie: string): Promise<number> =>
      (
        await fetch(`${emu.url}/console/session`, {
          headers: { cookie, 'sec-fetch-site': 'same-origin' },
          redirect: 'manual',
        })
      ).status;
    expect(await probe(s.cookie)).toBe(200);
    await emu.admin.clock.advance(11 * 3600_000);
    expect(await probe(s.cookie)).toBe(200);
    await emu.admin.clock.advance(3600_000);
    expect(await probe(s.cookie)).toBe(303);
    const again = await signInToConsole({ url: emu.url, email: 'temp@example.com', password: PASSWORD });
    await admin('DELETE', '/_emulator/users/temp@example.com');
    expect(await probe(again.cookie)).toBe(303);
  });
});

describe('console sign-in limits', () => {
  /** One sign-in through the form, as a browser sends it: the page first, then the post. */
  const attempt = async (url: string, email: string, password: string): Promise<Response> => {
    const page = await fetch(`${url}/console/login`);
    const html = await page.text();
    const cookie = Object.entries(cookiesOf(page))
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    return fetch(`${url}/console/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({
        csrf_token: hiddenField(html, 'csrf_token') ?? '',
        next: '/console',
        email,
        password,
      }),
    });
  };
  const user = (email: string) => ({ email, given_name: 'Ada', family_name: 'Lovelace', password: PASSWORD });

  it('locks an email after 5 wrong passwords, the right one included, until the lock ends', async () => {
    // A frozen clock: the lock's end moves only when the test moves the clock.
    const emu = await startTestEmulator({ clock: new EmulatorClock({ frozen: true }) });
    try {
      await emu.admin.users.create(user('ada@example.com'));
      await emu.admin.users.create(user('grace@example.com'));
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await attempt(emu.url, 'Ada@Example.com', `guess ${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);

      const locked = await attempt(emu.url, 'ada@example.com', PASSWORD);
      expect(locked.status).toBe(429);
      expect(locked.headers.get('retry-after')).toBe('900');
      expect(await locked.text()).toContain('Too many failed sign-ins. Sign-in is locked for 15 minutes');
      expect(cookiesOf(locked).oaa_emulator_session).toBeUndefined();
      // Another account from the same address is not locked.
      expect((await attempt(emu.url, 'grace@example.com', PASSWORD)).status).toBe(303);

      const events = await emu.admin.events({ eventType: 'USER_LOGIN_LOCKED' });
      expect(events).toEqual([
        expect.objectContaining({
          category: 'SYSTEM',
          severity: 'WARNING',
          entity_name: 'ada@example.com',
          message: 'Console sign-in as ada@example.com is locked for 15 minutes after 5 failed attempts',
        }),
      ]);

      await emu.admin.clock.advance(899_000);
      const almost = await attempt(emu.url, 'ada@example.com', PASSWORD);
      expect(almost.status).toBe(429);
      expect(almost.headers.get('retry-after')).toBe('1');
      await emu.admin.clock.advance(1000);
      expect((await attempt(emu.url, 'ada@example.com', PASSWORD)).status).toBe(303);
    } finally {
      await emu.close();
    }
  });

  it('locks an address after 20 failed sign-ins over any emails, and counts attempts sent at once', async () => {
    const emu = await startTestEmulator({ clock: new EmulatorClock({ frozen: true }) });
    try {
      await emu.admin.users.create(user('ada@example.com'));
      // Sent all at once: each counts from its start, so no more than the limit get a verdict.
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => attempt(emu.url, `nobody${i}@example.com`, 'guess')),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      expect(statuses).toContain(429);

      const locked = await attempt(emu.url, 'ada@example.com', PASSWORD);
      expect(locked.status).toBe(429);
      const wait = Number(locked.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      const events = await emu.admin.events({ eventType: 'USER_LOGIN_LOCKED' });
      expect(events.map((e) => e.entity_name)).toEqual(['127.0.0.1']);

      await emu.admin.clock.advance(wait * 1000);
      expect((await attempt(emu.url, 'ada@example.com', PASSWORD)).status).toBe(303);
    } finally {
      await emu.close();
    }
  });
});

describe('console sign-in over TLS', () => {
  /** A request over HTTPS to the emulator's self-signed certificate; answers status, headers and text. */
  const httpsRequest = async (
    url: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> => {
    const https = await import('node:https');
    return new Promise((resolve, reject) => {
      const req = https.request(
        url,
        { method: options.method ?? 'GET', headers: options.headers ?? {}, rejectUnauthorized: false },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  };

  it('names its cookies with the __Host- prefix, Secure, Path=/ and no Domain, and signs in with them', async () => {
    const emu = await startTestEmulator({ tls: true });
    try {
      const created = await httpsRequest(`${emu.url}/_emulator/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'ada@example.com',
          given_name: 'Ada',
          family_name: 'L',
          password: PASSWORD,
        }),
      });
      expect(created.status).toBe(200);
      const page = await httpsRequest(`${emu.url}/console/login`);
      const [csrfLine = ''] = page.headers['set-cookie'] ?? [];
      expect(csrfLine).toMatch(/^__Host-oaa_emulator_login_csrf=[^;]+;/);
      expect(csrfLine).toMatch(/; Secure/);
      expect(csrfLine).toMatch(/; Path=\//);
      expect(csrfLine).not.toMatch(/Domain=/i);
      const signedIn = await httpsRequest(`${emu.url}/console/login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: csrfLine.split(';')[0]!,
        },
        body: new URLSearchParams({
          csrf_token: hiddenField(page.text, 'csrf_token') ?? '',
          next: '/console',
          email: 'ada@example.com',
          password: PASSWORD,
        }).toString(),
      });
      expect(signedIn.status).toBe(303);
      const sessionLine = (signedIn.headers['set-cookie'] ?? []).find((l) =>
        l.includes('oaa_emulator_session'),
      );
      expect(sessionLine).toMatch(
        /^__Host-oaa_emulator_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/,
      );
      const info = await httpsRequest(`${emu.url}/console/session`, {
        headers: { cookie: sessionLine!.split(';')[0]!, 'sec-fetch-site': 'same-origin' },
      });
      expect(info.status).toBe(200);
      expect(JSON.parse(info.text)).toMatchObject({ user: { email: 'ada@example.com' } });
      // The unprefixed name is not the session's over TLS.
      const unprefixed = await httpsRequest(`${emu.url}/console/session`, {
        headers: {
          cookie: sessionLine!.split(';')[0]!.replace('__Host-', ''),
          'sec-fetch-site': 'same-origin',
        },
      });
      expect(unprefixed.status).toBe(303);
    } finally {
      await emu.close();
    }
  });
});
