/**
 * The OAuth2 credential against the emulator. It refreshes before expiry, once
 * under concurrent calls, stores the rotated tokens before using them, and fails clearly once the
 * app is revoked. Also the OAuth2 app management methods.
 */
import { oauthLoginForTest, startTestEmulator, type TestEmulator } from '@oaakit/emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { createOAuthCredential } from './credential.js';
import type { OAuthTokens } from './token-endpoint.js';

const REDIRECT = 'http://127.0.0.1/callback';

describe('OAuth2 credential and app management', () => {
  let emu: TestEmulator;
  let app: { client_id: string; client_secret: string };

  beforeAll(async () => {
    emu = await startTestEmulator();
    await emu.admin.users.create({
      email: 'ci@example.com',
      given_name: 'C',
      family_name: 'I',
      password: 'ci password',
    });
    await emu.admin.autoConsent({ user: 'ci@example.com', decision: 'allow' });
    const admin = createClient({ url: emu.url, apiKey: emu.adminKey });
    app = await admin.oauthApps.create({
      client_name: 'CLI',
      base_url: 'http://127.0.0.1',
      redirect_uris: [REDIRECT],
      allowed_scopes: ['profile', 'oaa:integrations'],
    });
  });
  afterAll(() => emu?.close());

  const login = async (): Promise<OAuthTokens> => {
    const t = await oauthLoginForTest({
      url: emu.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      redirectUri: REDIRECT,
      scope: 'oaa:integrations',
    });
    const { now } = await emu.admin.clock.get();
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token,
      expiresAt: Date.parse(now) + t.expires_in * 1000,
      scope: t.scope,
    };
  };

  it('manages apps and rotates a secret through the client', async () => {
    const admin = createClient({ url: emu.url, apiKey: emu.adminKey });
    const second = await admin.oauthApps.addSecret(app.client_id);
    const got = await admin.oauthApps.get(app.client_id);
    expect(got.secrets.map((s) => s.prefix)).toEqual([
      app.client_secret.slice(0, 4),
      second.client_secret.slice(0, 4),
    ]);
    await admin.oauthApps.deleteSecret(app.client_id, second.secret_id);
    expect((await admin.oauthApps.list()).map((a) => a.client_id)).toContain(app.client_id);
    const other = await admin.oauthApps.create({
      client_name: 'Other',
      base_url: 'https://example.com',
      redirect_uris: ['https://example.com/cb'],
      allowed_scopes: ['profile'],
    });
    expect((await admin.oauthApps.revoke(other.client_id)).state).toBe('REVOKED');
    expect((await admin.oauthApps.reinstate(other.client_id)).state).toBe('ACTIVE');
    await admin.oauthApps.delete(other.client_id);
    await expect(admin.oauthApps.get(other.client_id)).rejects.toMatchObject({ status: 404 });
  });

  it('refreshes once under concurrent calls and stores the rotated tokens before using them', async () => {
    const tokens = await login();
    const order: string[] = [];
    const stored: OAuthTokens[] = [];
    // The emulator clock and the credential's clock agree: the credential reads the emulator's.
    let clockMs = Date.parse((await emu.admin.clock.get()).now);
    const credential = createOAuthCredential({
      url: emu.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      tokens,
      now: () => clockMs,
      store: (next) => {
        order.push(`store ${next.accessToken}`);
        stored.push(next);
        return Promise.resolve();
      },
    });
    const recordingFetch: typeof fetch = (input, init) => {
      const auth = new Headers(init?.headers).get('authorization');
      if (auth !== null) order.push(`call ${auth.slice('Bearer '.length)}`);
      return fetch(input, init);
    };
    const client = createClient({ url: emu.url, apiKey: credential, fetch: recordingFetch, retry: false });
    await client.templates.list();
    expect(order).toEqual([`call ${tokens.accessToken}`]);

    // Into the last 5 minutes before expiry: ten calls at once, one refresh.
    await emu.admin.calls.clear();
    clockMs = tokens.expiresAt - 60_000;
    await emu.admin.clock.advance(tokens.expiresAt - 60_000 - Date.parse((await emu.admin.clock.get()).now));
    order.length = 0;
    await Promise.all(Array.from({ length: 10 }, () => client.templates.list()));
    const refreshes = await emu.admin.calls.list({ method: 'POST', path: '/oauth/token' });
    expect(refreshes).toHaveLength(1);
    expect(stored).toHaveLength(1);
    const next = stored[0]!;
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(order[0]).toBe(`store ${next.accessToken}`);
    expect(order.slice(1)).toEqual(Array.from({ length: 10 }, () => `call ${next.accessToken}`));
    expect(credential.current()).toEqual(next);
  });

  it('renews once when the service refuses a token its clock says has expired', async () => {
    const tokens = await login();
    const stored: OAuthTokens[] = [];
    const credential = createOAuthCredential({
      url: emu.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      tokens,
      store: (next) => {
        stored.push(next);
        return Promise.resolve();
      },
    });
    const client = createClient({ url: emu.url, apiKey: credential, retry: false });
    // The service's clock runs 12 hours ahead of ours: the token it issued has expired there.
    await emu.admin.clock.advance(12 * 3600_000);
    await emu.admin.calls.clear();
    await Promise.all([client.templates.list(), client.templates.list(), client.templates.list()]);
    expect(stored).toHaveLength(1);
    expect(await emu.admin.calls.list({ method: 'POST', path: '/oauth/token' })).toHaveLength(1);
    const statuses = (await emu.admin.calls.list({ method: 'GET' })).map((c) => c.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
  });

  it('adopts tokens another process sharing the store rotated, instead of presenting a stale refresh token', async () => {
    let shared = await login();
    // A minute before the first token expires, for both.
    const at = shared.expiresAt - 60_000;
    const clockMs = (): number => at;
    const make = () =>
      createOAuthCredential({
        url: emu.url,
        clientId: app.client_id,
        clientSecret: app.client_secret,
        tokens: shared,
        now: clockMs,
        load: () => Promise.resolve(shared),
        store: (next) => {
          shared = next;
          return Promise.resolve();
        },
      });
    const first = make();
    const second = make();
    await emu.admin.calls.clear();
    // Both see their token about to expire; the first refreshes, the second adopts its result.
    const a = await first.bearer();
    const b = await second.bearer();
    expect(b).toBe(a);
    expect(await emu.admin.calls.list({ method: 'POST', path: '/oauth/token' })).toHaveLength(1);
    const check = await fetch(`${emu.url}/api/v1/providers/custom/templates`, {
      headers: { authorization: `Bearer ${b}` },
    });
    expect(check.status).toBe(200);
  });

  it('fails with OAUTH_REFUSED once the app is revoked', async () => {
    const tokens = await login();
    const credential = createOAuthCredential({
      url: emu.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      tokens,
      store: () => Promise.resolve(),
    });
    const client = createClient({ url: emu.url, apiKey: credential, retry: false });
    await client.templates.list();
    const admin = createClient({ url: emu.url, apiKey: emu.adminKey });
    await admin.oauthApps.revoke(app.client_id);
    try {
      // The 401 makes the credential try one refresh, which the revoked app cannot get.
      await expect(client.templates.list()).rejects.toMatchObject({ code: 'OAUTH_REFUSED' });
      await expect(credential.refresh()).rejects.toMatchObject({ code: 'OAUTH_REFUSED' });
      const error = (await credential.refresh().catch((e: unknown) => e)) as Error;
      expect(error.message).not.toContain(app.client_secret);
      expect(error.message).not.toContain(tokens.refreshToken);
    } finally {
      await admin.oauthApps.reinstate(app.client_id);
    }
  });
});
