/**
 * Arbitrary input to the OAuth2 endpoints: every answer is a deliberate refusal (never a 500, never
 * a code or token), and a redirect only ever goes to the app's registered URI.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../testing/test-emulator.js';

const REDIRECT = 'https://app.example.com/cb';
const FIELDS = [
  'grant_type',
  'client_id',
  'client_secret',
  'code',
  'redirect_uri',
  'code_verifier',
  'refresh_token',
  'scope',
  'state',
  'response_type',
  'code_challenge',
  'code_challenge_method',
];

describe('OAuth2 endpoints under arbitrary input', () => {
  let emu: TestEmulator;
  let clientId: string;
  let secret: string;
  beforeAll(async () => {
    emu = await startTestEmulator();
    await emu.admin.users.create({
      email: 'f@example.com',
      given_name: 'F',
      family_name: 'Z',
      password: 'fuzz password',
    });
    await emu.admin.autoConsent({ user: 'f@example.com', decision: 'allow' });
    const app = await emu.admin.oauthApps.create({
      client_name: 'Fuzz',
      base_url: 'https://example.com',
      redirect_uris: [REDIRECT],
      allowed_scopes: ['profile'],
    });
    clientId = app.client_id;
    secret = app.client_secret;
  });
  afterAll(() => emu?.close());

  const value = (): fc.Arbitrary<string> =>
    fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom(
        'authorization_code',
        'refresh_token',
        'code',
        'S256',
        'plain',
        'profile',
        'openid',
        REDIRECT,
        '',
        'a'.repeat(3000),
      ),
      fc.constant('__client_id__'),
      fc.constant('__secret__'),
    );
  const form = (): fc.Arbitrary<[string, string][]> =>
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 10 })), value()), {
      maxLength: 12,
    });
  const fill = (v: string): string => (v === '__client_id__' ? clientId : v === '__secret__' ? secret : v);

  it('token endpoint: 400 or 401 RFC 6749 errors, never a token', async () => {
    await fc.assert(
      fc.asyncProperty(form(), async (pairs) => {
        const body = new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, fill(v)]));
        const r = await fetch(`${emu.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        const json = (await r.json()) as { error?: string; access_token?: string };
        expect([400, 401]).toContain(r.status);
        expect(json.access_token).toBeUndefined();
        expect(['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type']).toContain(
          json.error,
        );
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('authorize: an error page or a redirect to the registered URI only', async () => {
    await fc.assert(
      fc.asyncProperty(form(), async (pairs) => {
        const query = new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, fill(v)]));
        const r = await fetch(`${emu.url}/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
        await r.arrayBuffer();
        expect([302, 303, 400]).toContain(r.status);
        const location = r.headers.get('location');
        if (r.status === 302) expect(location?.startsWith(`${REDIRECT}?`)).toBe(true);
        if (r.status === 303) expect(location?.startsWith('/console/login?next=')).toBe(true);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
