/**
 * The set-up the OAuth2 flow tests share: an emulator with a console user, an app registered for
 * `REDIRECT`, headless consent on, and helpers that speak HTTP as a client would.
 */
import { randomBytes } from 'node:crypto';
import { pkceChallenge } from '@oaakit/core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../testing/test-emulator.js';

export const REDIRECT = 'https://app.example.com/callback';
export const PASSWORD = 'consenting adult';

/** A PKCE verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}

/** Registers the set-up's hooks in the calling describe block; the fields fill in before each test. */
export function useOAuthFlow() {
  const f = {
    emu: undefined as unknown as TestEmulator,
    clientId: '',
    secret: '',
    user: { sub: '' },
    authorizeUrl: (params: Record<string, string | undefined>): string => {
      const q = new URLSearchParams();
      const all: Record<string, string | undefined> = {
        client_id: f.clientId,
        response_type: 'code',
        redirect_uri: REDIRECT,
        scope: 'profile',
        state: 'st-1',
        code_challenge_method: 'S256',
        ...params,
      };
      for (const [k, v] of Object.entries(all)) if (v !== undefined) q.set(k, v);
      return `${f.emu.url}/oauth/authorize?${q.toString()}`;
    },
    location: async (
      url: string,
      init: RequestInit = {},
    ): Promise<{ status: number; to: URL | undefined; body: string }> => {
      const r = await fetch(url, { redirect: 'manual', ...init });
      const header = r.headers.get('location');
      return {
        status: r.status,
        to: header === null ? undefined : new URL(header, f.emu.url),
        body: await r.text(),
      };
    },
    token: async (
      fields: Record<string, string>,
    ): Promise<{ status: number; body: Record<string, unknown> }> => {
      const r = await fetch(`${f.emu.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: f.clientId, client_secret: f.secret, ...fields }),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    },
    /** A code by headless consent. */
    codeFor: async (scope = 'profile'): Promise<{ code: string; verifier: string }> => {
      const { verifier, challenge } = pkce();
      const r = await f.location(f.authorizeUrl({ code_challenge: challenge, scope }));
      if (r.status !== 302 || r.to?.searchParams.get('state') !== 'st-1')
        throw new Error(`authorize answered ${r.status} ${r.to?.search ?? ''}`);
      return { code: r.to.searchParams.get('code')!, verifier };
    },
    exchange: (c: { code: string; verifier: string }) => {
      return f.token({
        grant_type: 'authorization_code',
        code: c.code,
        redirect_uri: REDIRECT,
        code_verifier: c.verifier,
      });
    },
    userinfo: (accessToken: string): Promise<Response> => {
      return fetch(`${f.emu.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
    },
  };
  beforeAll(async () => {
    f.emu = await startTestEmulator();
    f.user = await f.emu.admin.users.create({
      email: 'ada@example.com',
      given_name: 'Ada',
      family_name: 'Lovelace',
      password: PASSWORD,
    });
    const app = await f.emu.admin.oauthApps.create({
      client_name: 'Reports <script>',
      base_url: 'https://example.com',
      redirect_uris: [REDIRECT],
      allowed_scopes: ['profile', 'oaa:integrations'],
    });
    f.clientId = app.client_id;
    f.secret = app.client_secret;
  });
  beforeEach(() => f.emu.admin.autoConsent({ user: 'ada@example.com', decision: 'allow' }));
  afterAll(() => f.emu?.close());
  return f;
}
