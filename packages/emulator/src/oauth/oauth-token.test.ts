/**
 * The token step over HTTP: /oauth/token (single-use codes, PKCE, rotation, RFC 6749 errors),
 * /oauth/userinfo, access tokens as API credentials within their scopes, and the negative cases of
 * RFC 9700: code reuse, a wrong verifier, a redirect URI mismatch, refresh-token reuse after
 * rotation, a revoked app.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD, pkce, REDIRECT, useOAuthFlow } from '../private-test-helpers/oauth-flow.js';

describe('OAuth2 token endpoint, userinfo and access tokens', () => {
  const f = useOAuthFlow();
  const { authorizeUrl, location, token, codeFor, exchange, userinfo } = f;

  it('issues a code, exchanges it once for tokens lasting 12 h, and answers userinfo', async () => {
    const pair = await exchange(await codeFor());
    expect(pair.status).toBe(200);
    expect(pair.body).toMatchObject({ token_type: 'Bearer', expires_in: 43200, scope: 'profile' });
    const info = await userinfo(pair.body.access_token as string);
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({
      sub: f.user.sub,
      email: 'ada@example.com',
      given_name: 'Ada',
      family_name: 'Lovelace',
      name: 'Ada Lovelace',
    });
    // The client f.secret's last use is recorded.
    expect((await f.emu.admin.oauthApps.get(f.clientId)).secrets[0]?.last_used_at).not.toBeNull();
  });

  it('expires access tokens after 12 hours and codes after 10 minutes of emulator time', async () => {
    const pair = await exchange(await codeFor());
    await f.emu.admin.clock.advance(12 * 3600_000 - 1000);
    expect((await userinfo(pair.body.access_token as string)).status).toBe(200);
    await f.emu.admin.clock.advance(1000);
    expect((await userinfo(pair.body.access_token as string)).status).toBe(401);
    const late = await codeFor();
    await f.emu.admin.clock.advance(10 * 60_000);
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
    await f.emu.admin.clock.advance(30 * 24 * 3600_000);
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
    const wrongSecret = await fetch(`${f.emu.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: f.clientId,
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
    const json = await fetch(`${f.emu.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code' }),
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
    const huge = await fetch(`${f.emu.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `code=${'a'.repeat(70_000)}`,
    });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: string }).error).toBe('invalid_request');
    // HTTP Basic client authentication works too.
    const d = await codeFor();
    const basic = await fetch(`${f.emu.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(f.clientId)}:${encodeURIComponent(f.secret)}`).toString('base64')}`,
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

  it('lets an access token call API routes within its scopes only', async () => {
    const profileOnly = await exchange(await codeFor('profile'));
    const integrations = await exchange(await codeFor('oaa:integrations'));
    const call = (t: unknown, path: string) =>
      fetch(f.emu.url + path, { headers: { authorization: `Bearer ${t as string}` } });
    expect((await call(integrations.body.access_token, '/api/v1/providers/custom')).status).toBe(200);
    expect((await call(profileOnly.body.access_token, '/api/v1/providers/custom')).status).toBe(403);
    // Admin controls and the private configuration take API keys only.
    expect((await call(integrations.body.access_token, '/_emulator/oauth_apps')).status).toBe(403);
    // userinfo needs profile: without it, 401 (the spec).
    expect((await userinfo(integrations.body.access_token as string)).status).toBe(401);
    // An API key is no access token for userinfo.
    expect((await userinfo(f.emu.apiKey)).status).toBe(401);
  });

  it('fails every token of a revoked app at its next use, and of a deleted user or app', async () => {
    const pair = await exchange(await codeFor('profile oaa:integrations'));
    expect((await userinfo(pair.body.access_token as string)).status).toBe(200);
    await f.emu.admin.oauthApps.revoke(f.clientId);
    expect((await userinfo(pair.body.access_token as string)).status).toBe(401);
    const api = await fetch(`${f.emu.url}/api/v1/providers/custom`, {
      headers: { authorization: `Bearer ${pair.body.access_token as string}` },
    });
    expect(api.status).toBe(401);
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: pair.body.refresh_token as string })).body
        .error,
    ).toBe('invalid_client');
    const blocked = await location(authorizeUrl({ code_challenge: pkce().challenge }));
    expect(blocked.status).toBe(400);
    await f.emu.admin.oauthApps.reinstate(f.clientId);
    // Reinstated: the app authenticates again, its old tokens stay revoked.
    expect((await userinfo(pair.body.access_token as string)).status).toBe(401);
    const fresh = await exchange(await codeFor());
    expect((await userinfo(fresh.body.access_token as string)).status).toBe(200);
    await f.emu.admin.users.create({
      email: 'temp@example.com',
      given_name: 'T',
      family_name: 'U',
      password: PASSWORD,
    });
    await f.emu.admin.autoConsent({ user: 'temp@example.com', decision: 'allow' });
    const temp = await exchange(await codeFor());
    await f.emu.admin.users.delete('temp@example.com');
    expect((await userinfo(temp.body.access_token as string)).status).toBe(401);
    await f.emu.admin.oauthApps.delete(f.clientId);
    expect((await userinfo(fresh.body.access_token as string)).status).toBe(401);
  });
});
