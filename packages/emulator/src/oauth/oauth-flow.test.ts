/**
 * Issue 14, items 2-5 over HTTP: /oauth/authorize with every check, the consent page and headless
 * consent, /oauth/token (codes, PKCE, rotation, RFC 6749 errors), /oauth/userinfo, access tokens as
 * API credentials, and the negative cases of RFC 9700: code reuse, a wrong verifier, a redirect URI
 * mismatch, refresh-token reuse after rotation, a revoked app.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hiddenField, signInToConsole } from '../testing/console-session.js';
import { startTestEmulator, type TestEmulator } from '../testing/test-emulator.js';

const REDIRECT = 'https://app.example.com/callback';
const PASSWORD = 'consenting adult';

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('OAuth2 authorization code flow with PKCE', () => {
  let emu: TestEmulator;
  let clientId: string;
  let secret: string;
  let user: { sub: string };

  const authorizeUrl = (params: Record<string, string | undefined>): string => {
    const q = new URLSearchParams();
    const all: Record<string, string | undefined> = {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'profile',
      state: 'st-1',
      code_challenge_method: 'S256',
      ...params,
    };
    for (const [k, v] of Object.entries(all)) if (v !== undefined) q.set(k, v);
    return `${emu.url}/oauth/authorize?${q.toString()}`;
  };
  const location = async (
    url: string,
    init: RequestInit = {},
  ): Promise<{ status: number; to: URL | undefined; body: string }> => {
    const r = await fetch(url, { redirect: 'manual', ...init });
    const header = r.headers.get('location');
    return {
      status: r.status,
      to: header === null ? undefined : new URL(header, emu.url),
      body: await r.text(),
    };
  };
  const token = async (
    fields: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const r = await fetch(`${emu.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, client_secret: secret, ...fields }),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  /** A code by headless consent. */
  const codeFor = async (scope = 'profile'): Promise<{ code: string; verifier: string }> => {
    const { verifier, challenge } = pkce();
    const r = await location(authorizeUrl({ code_challenge: challenge, scope }));
    expect(r.status).toBe(302);
    expect(r.to?.searchParams.get('state')).toBe('st-1');
    return { code: r.to!.searchParams.get('code')!, verifier };
  };
  const exchange = (c: { code: string; verifier: string }) =>
    token({
      grant_type: 'authorization_code',
      code: c.code,
      redirect_uri: REDIRECT,
      code_verifier: c.verifier,
    });
  const userinfo = (accessToken: string) =>
    fetch(`${emu.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

  beforeAll(async () => {
    emu = await startTestEmulator();
    user = await emu.admin.users.create({
      email: 'ada@example.com',
      given_name: 'Ada',
      family_name: 'Lovelace',
      password: PASSWORD,
    });
    const app = await emu.admin.oauthApps.create({
      client_name: 'Reports <script>',
      base_url: 'https://example.com',
      redirect_uris: [REDIRECT],
      allowed_scopes: ['profile', 'oaa:integrations'],
    });
    clientId = app.client_id;
    secret = app.client_secret;
  });
  beforeEach(() => emu.admin.autoConsent({ user: 'ada@example.com', decision: 'allow' }));
  afterAll(() => emu?.close());

  it('issues a code, exchanges it once for tokens lasting 12 h, and answers userinfo', async () => {
    const pair = await exchange(await codeFor());
    expect(pair.status).toBe(200);
    expect(pair.body).toMatchObject({ token_type: 'Bearer', expires_in: 43200, scope: 'profile' });
    const info = await userinfo(pair.body.access_token as string);
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({
      sub: user.sub,
      email: 'ada@example.com',
      given_name: 'Ada',
      family_name: 'Lovelace',
      name: 'Ada Lovelace',
    });
    // The client secret's last use is recorded.
    expect((await emu.admin.oauthApps.get(clientId)).secrets[0]?.last_used_at).not.toBeNull();
  });

  it('expires access tokens after 12 hours and codes after 10 minutes of emulator time', async () => {
    const pair = await exchange(await codeFor());
    await emu.admin.clock.advance(12 * 3600_000 - 1000);
    expect((await userinfo(pair.body.access_token as string)).status).toBe(200);
    await emu.admin.clock.advance(1000);
    expect((await userinfo(pair.body.access_token as string)).status).toBe(401);
    const late = await codeFor();
    await emu.admin.clock.advance(10 * 60_000);
    const r = await exchange(late);
    expect(r).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refreshes with rotation, and a reused refresh token revokes the whole family (RFC 9700)', async () => {
    const first = await exchange(await codeFor());
    const second = await token({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await userinfo(first.body.access_token as string)).status).toBe(401);
    expect((await userinfo(second.body.access_token as string)).status).toBe(200);
    const reuse = await token({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
    });
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The attacker's reuse killed the legitimate pair as well.
    expect((await userinfo(second.body.access_token as string)).status).toBe(401);
    const third = await token({
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token as string,
    });
    expect(third).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('expires refresh tokens after 30 days', async () => {
    const pair = await exchange(await codeFor());
    await emu.admin.clock.advance(30 * 24 * 3600_000);
    const r = await token({ grant_type: 'refresh_token', refresh_token: pair.body.refresh_token as string });
    expect(r).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: expect.stringMatching(/expired/) },
    });
  });

  it('refuses a reused code and revokes the tokens issued from it', async () => {
    const c = await codeFor();
    const pair = await exchange(c);
    expect(pair.status).toBe(200);
    const again = await exchange(c);
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await userinfo(pair.body.access_token as string)).status).toBe(401);
    const refresh = await token({
      grant_type: 'refresh_token',
      refresh_token: pair.body.refresh_token as string,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('refuses a wrong code verifier and a redirect URI that differs at the token endpoint', async () => {
    const c = await codeFor();
    expect(await exchange({ code: c.code, verifier: pkce().verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) },
    });
    const d = await codeFor();
    const r = await token({
      grant_type: 'authorization_code',
      code: d.code,
      redirect_uri: `${REDIRECT}/other`,
      code_verifier: d.verifier,
    });
    expect(r).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: expect.stringMatching(/redirect_uri/) },
    });
  });

  it('answers RFC 6749 errors: invalid_client, invalid_request, unsupported_grant_type', async () => {
    const c = await codeFor();
    const wrongSecret = await fetch(`${emu.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        client_secret: 'oaa_cs_wrong',
        code: c.code,
        redirect_uri: REDIRECT,
        code_verifier: c.verifier,
      }),
    });
    expect(wrongSecret.status).toBe(401);
    expect(((await wrongSecret.json()) as { error: string }).error).toBe('invalid_client');
    expect(await token({ grant_type: 'password', username: 'a', password: 'b' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect(await token({ grant_type: 'authorization_code', code: c.code })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    const json = await fetch(`${emu.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code' }),
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
    const huge = await fetch(`${emu.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `code=${'a'.repeat(70_000)}`,
    });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: string }).error).toBe('invalid_request');
    // HTTP Basic client authentication works too.
    const d = await codeFor();
    const basic = await fetch(`${emu.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: d.code,
        redirect_uri: REDIRECT,
        code_verifier: d.verifier,
      }),
    });
    expect(basic.status).toBe(200);
  });

  it('never redirects to an unregistered redirect URI, nor for an unknown client', async () => {
    const { challenge } = pkce();
    for (const url of [
      authorizeUrl({ code_challenge: challenge, redirect_uri: 'https://evil.example/cb' }),
      authorizeUrl({ code_challenge: challenge, redirect_uri: `${REDIRECT}/` }),
      authorizeUrl({ code_challenge: challenge, redirect_uri: undefined }),
      authorizeUrl({ code_challenge: challenge, client_id: 'no-such-client' }),
    ]) {
      const r = await location(url);
      expect(r.status).toBe(400);
      expect(r.to).toBeUndefined();
      expect(r.body).toContain('Authorization failed');
    }
  });

  it('rejects a missing or non-S256 challenge, and unregistered or unallowed scopes including openid', async () => {
    const { challenge } = pkce();
    const cases: [Record<string, string | undefined>, string, RegExp][] = [
      [{ code_challenge: undefined }, 'invalid_request', /code_challenge/],
      [{ code_challenge: challenge, code_challenge_method: 'plain' }, 'invalid_request', /S256/],
      [{ code_challenge: challenge, code_challenge_method: undefined }, 'invalid_request', /S256/],
      [{ code_challenge: 'short' }, 'invalid_request', /43/],
      [{ code_challenge: challenge, scope: 'openid profile' }, 'invalid_scope', /openid/],
      [{ code_challenge: challenge, scope: 'lcm:access-requests:manage' }, 'invalid_scope', /not allowed/],
      [{ code_challenge: challenge, response_type: 'token' }, 'unsupported_response_type', /code/],
      [{ code_challenge: challenge, state: undefined }, 'invalid_request', /state/],
    ];
    for (const [params, error, description] of cases) {
      const r = await location(authorizeUrl(params));
      expect(r.status, JSON.stringify(params)).toBe(302);
      expect(r.to?.origin + r.to!.pathname).toBe(REDIRECT);
      expect(r.to?.searchParams.get('error')).toBe(error);
      expect(r.to?.searchParams.get('error_description')).toMatch(description);
      expect(r.to?.searchParams.get('code')).toBeNull();
    }
  });

  it('redirects with access_denied when consent is cancelled', async () => {
    await emu.admin.autoConsent({ user: 'ada@example.com', decision: 'cancel' });
    const r = await location(authorizeUrl({ code_challenge: pkce().challenge }));
    expect(r.to?.searchParams.get('error')).toBe('access_denied');
    expect(r.to?.searchParams.get('state')).toBe('st-1');
    expect(r.to?.searchParams.get('code')).toBeNull();
  });

  it('asks a signed-in user on a consent page naming the app and scopes, CSRF-protected', async () => {
    await emu.admin.autoConsent({ decision: null });
    const { verifier, challenge } = pkce();
    const url = authorizeUrl({ code_challenge: challenge, scope: 'profile oaa:integrations' });
    // Not signed in: to the sign-in page, which comes back to the same request.
    const anonymous = await location(url);
    expect(anonymous.status).toBe(303);
    expect(anonymous.to?.pathname).toBe('/console/login');
    const next = anonymous.to!.searchParams.get('next')!;
    expect(next).toBe(url.slice(emu.url.length));
    const s = await signInToConsole({ url: emu.url, email: 'ada@example.com', password: PASSWORD, next });
    expect(s.location).toBe(next);
    const consent = await fetch(emu.url + s.location, { headers: { cookie: s.cookie } });
    const html = await consent.text();
    expect(consent.headers.get('x-frame-options')).toBe('DENY');
    expect(html).toContain('Reports &lt;script&gt;');
    expect(html).not.toContain('Reports <script>');
    expect(html).toContain('<code>profile</code>');
    expect(html).toContain('<code>oaa:integrations</code>');
    expect(html).toContain('<button type="submit" name="decision" value="allow">');
    expect(html).toContain('<button type="submit" name="decision" value="cancel">');
    const form = new URLSearchParams();
    for (const name of [
      'csrf_token',
      'client_id',
      'response_type',
      'redirect_uri',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
    ])
      form.set(name, hiddenField(html, name) ?? '');
    form.set('decision', 'allow');
    const forged = new URLSearchParams(form);
    forged.set('csrf_token', 'forged');
    const refused = await location(`${emu.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s.cookie },
      body: forged,
    });
    expect(refused.status).toBe(403);
    const allowed = await location(`${emu.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s.cookie },
      body: form,
    });
    expect(allowed.status).toBe(303);
    expect(allowed.to?.searchParams.get('state')).toBe('st-1');
    const pair = await exchange({ code: allowed.to!.searchParams.get('code')!, verifier });
    expect(pair.body.scope).toBe('profile oaa:integrations');
    form.set('decision', 'cancel');
    const cancelled = await location(`${emu.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s.cookie },
      body: form,
    });
    expect(cancelled.to?.searchParams.get('error')).toBe('access_denied');
  });

  it('lets an access token call API routes within its scopes only', async () => {
    const profileOnly = await exchange(await codeFor('profile'));
    const integrations = await exchange(await codeFor('oaa:integrations'));
    const call = (t: unknown, path: string) =>
      fetch(emu.url + path, { headers: { authorization: `Bearer ${t as string}` } });
    expect((await call(integrations.body.access_token, '/api/v1/providers/custom')).status).toBe(200);
    expect((await call(profileOnly.body.access_token, '/api/v1/providers/custom')).status).toBe(403);
    // Admin controls and the private configuration take API keys only.
    expect((await call(integrations.body.access_token, '/_emulator/oauth_apps')).status).toBe(403);
    // userinfo needs profile: without it, 401 (the spec).
    expect((await userinfo(integrations.body.access_token as string)).status).toBe(401);
    // An API key is no access token for userinfo.
    expect((await userinfo(emu.apiKey)).status).toBe(401);
  });

  it('fails every token of a revoked app at its next use, and of a deleted user or app', async () => {
    const pair = await exchange(await codeFor('profile oaa:integrations'));
    expect((await userinfo(pair.body.access_token as string)).status).toBe(200);
    await emu.admin.oauthApps.revoke(clientId);
    expect((await userinfo(pair.body.access_token as string)).status).toBe(401);
    const api = await fetch(`${emu.url}/api/v1/providers/custom`, {
      headers: { authorization: `Bearer ${pair.body.access_token as string}` },
    });
    expect(api.status).toBe(401);
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: pair.body.refresh_token as string })).body
        .error,
    ).toBe('invalid_client');
    const blocked = await location(authorizeUrl({ code_challenge: pkce().challenge }));
    expect(blocked.status).toBe(400);
    await emu.admin.oauthApps.reinstate(clientId);
    // Reinstated: the app authenticates again, its old tokens stay revoked.
    expect((await userinfo(pair.body.access_token as string)).status).toBe(401);
    const fresh = await exchange(await codeFor());
    expect((await userinfo(fresh.body.access_token as string)).status).toBe(200);
    await emu.admin.users.create({
      email: 'temp@example.com',
      given_name: 'T',
      family_name: 'U',
      password: PASSWORD,
    });
    await emu.admin.autoConsent({ user: 'temp@example.com', decision: 'allow' });
    const temp = await exchange(await codeFor());
    await emu.admin.users.delete('temp@example.com');
    expect((await userinfo(temp.body.access_token as string)).status).toBe(401);
    await emu.admin.oauthApps.delete(clientId);
    expect((await userinfo(fresh.body.access_token as string)).status).toBe(401);
  });
});
