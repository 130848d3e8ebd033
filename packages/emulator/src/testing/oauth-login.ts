/**
 * An OAuth2 login through the emulator's headless consent, for tests of OAuth2 clients: PKCE S256,
 * `/oauth/authorize` answered at once as the auto-consent user, the code exchanged at `/oauth/token`.
 */
import { randomBytes } from 'node:crypto';
import { pkceChallenge } from '@oaakit/core';
import type { OAuthTokenResponse } from '@oaakit/core';

/** Options of {@link oauthLoginForTest}. */
export interface OAuthTestLogin {
  url: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scope: string;
}

/**
 * Runs the authorization code flow with PKCE and answers the token response. Headless consent must
 * be on (`admin.autoConsent({ user, decision: 'allow' })`).
 */
export async function oauthLoginForTest(options: OAuthTestLogin): Promise<OAuthTokenResponse> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const query = new URLSearchParams({
    client_id: options.clientId,
    response_type: 'code',
    redirect_uri: options.redirectUri,
    scope: options.scope,
    state,
    code_challenge: pkceChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const authorize = await fetch(`${options.url}/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
  await authorize.arrayBuffer();
  const location = new URL(authorize.headers.get('location') ?? '', options.url);
  const code = location.searchParams.get('code');
  if (code === null || location.searchParams.get('state') !== state)
    throw new Error(`/oauth/authorize answered ${authorize.status} ${location.search}`);
  const res = await fetch(`${options.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: options.clientId,
      client_secret: options.clientSecret,
      code,
      redirect_uri: options.redirectUri,
      code_verifier: verifier,
    }),
  });
  if (!res.ok) throw new Error(`/oauth/token answered ${res.status} ${await res.text()}`);
  return (await res.json()) as OAuthTokenResponse;
}
