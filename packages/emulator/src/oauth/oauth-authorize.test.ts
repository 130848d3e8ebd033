/**
 * The authorization step over HTTP: /oauth/authorize with every check, the consent page (signed-in user,
 * CSRF) and headless consent; redirect URIs matched exactly, loopback ports aside (RFC 8252).
 */
import { describe, expect, it } from 'vitest';
import { hiddenField, signInToConsole } from '../testing/console-session.js';
import { PASSWORD, pkce, REDIRECT, useOAuthFlow } from '../private-test-helpers/oauth-flow.js';

describe('OAuth2 authorization endpoint and consent', () => {
  const f = useOAuthFlow();
  const { authorizeUrl, location, exchange } = f;

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

  it('matches a loopback IP redirect URI on any port (RFC 8252), and nothing else loosely', async () => {
    const native = await f.emu.admin.oauthApps.create({
      client_name: 'CLI',
      base_url: 'http://127.0.0.1',
      redirect_uris: ['http://127.0.0.1/callback'],
      allowed_scopes: ['profile'],
    });
    const url = (redirect: string): string =>
      authorizeUrl({ client_id: native.client_id, redirect_uri: redirect, code_challenge: pkce().challenge });
    const ok = await location(url('http://127.0.0.1:49152/callback'));
    expect(ok.status).toBe(302);
    expect(ok.to?.origin).toBe('http://127.0.0.1:49152');
    for (const bad of [
      'http://127.0.0.1:49152/other',
      'http://localhost:49152/callback',
      'http://127.0.0.1:49152/callback?x=1',
    ])
      expect((await location(url(bad))).status).toBe(400);
  });

  it('never redirects to a javascript:, data:, vbscript: or file: URI, even for an app that allows any', async () => {
    const loose = await f.emu.admin.oauthApps.create({
      client_name: 'Loose',
      base_url: 'https://example.com',
      redirect_uris: ['https://example.com/cb'],
      allowed_scopes: ['profile'],
      allow_any_redirect_uri: true,
    });
    const url = (redirect: string): string =>
      authorizeUrl({ client_id: loose.client_id, redirect_uri: redirect, code_challenge: pkce().challenge });
    for (const bad of [
      'javascript:alert(document.cookie)',
      ' JAVASCRIPT:alert(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ]) {
      const r = await location(url(bad));
      expect(r.status, bad).toBe(400);
      expect(r.to, bad).toBeUndefined();
      expect(r.body).toContain('must not use the');
    }
    // RFC 8252 private-use schemes still get their code.
    const native = await location(url('com.example.app:/callback'));
    expect(native.status).toBe(302);
    expect(native.to?.protocol).toBe('com.example.app:');
    expect(native.to?.searchParams.get('code')).toMatch(/./);
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
    await f.emu.admin.autoConsent({ user: 'ada@example.com', decision: 'cancel' });
    const r = await location(authorizeUrl({ code_challenge: pkce().challenge }));
    expect(r.to?.searchParams.get('error')).toBe('access_denied');
    expect(r.to?.searchParams.get('state')).toBe('st-1');
    expect(r.to?.searchParams.get('code')).toBeNull();
  });

  it('asks a signed-in user on a consent page naming the app and scopes, CSRF-protected', async () => {
    await f.emu.admin.autoConsent({ decision: null });
    const { verifier, challenge } = pkce();
    const url = authorizeUrl({ code_challenge: challenge, scope: 'profile oaa:integrations' });
    // Not signed in: to the sign-in page, which comes back to the same request.
    const anonymous = await location(url);
    expect(anonymous.status).toBe(303);
    expect(anonymous.to?.pathname).toBe('/console/login');
    const next = anonymous.to!.searchParams.get('next')!;
    expect(next).toBe(url.slice(f.emu.url.length));
    const s = await signInToConsole({ url: f.emu.url, email: 'ada@example.com', password: PASSWORD, next });
    expect(s.location).toBe(next);
    const consent = await fetch(f.emu.url + s.location, { headers: { cookie: s.cookie } });
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
    const refused = await location(`${f.emu.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s.cookie },
      body: forged,
    });
    expect(refused.status).toBe(403);
    const allowed = await location(`${f.emu.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s.cookie },
      body: form,
    });
    expect(allowed.status).toBe(303);
    expect(allowed.to?.searchParams.get('state')).toBe('st-1');
    const pair = await exchange({ code: allowed.to!.searchParams.get('code')!, verifier });
    expect(pair.body.scope).toBe('profile oaa:integrations');
    form.set('decision', 'cancel');
    const cancelled = await location(`${f.emu.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s.cookie },
      body: form,
    });
    expect(cancelled.to?.searchParams.get('error')).toBe('access_denied');
  });
});
