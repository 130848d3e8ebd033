/**
 * An OAuth2 login kept in the OS keychain (service `oaakit-oauth`, one entry per service URL): the
 * client id and secret and the current tokens, replaced on every refresh before the new tokens are
 * used. `resolveTarget` turns it into a client credential that refreshes itself.
 */
import { createOAuthCredential, type OAuthCredential, type OAuthTokens } from '@oaakit/client';
import { z } from '@oaakit/core';
import { accountOf, deleteKeychain, readKeychain, writeKeychain } from './keychain.js';

/** Keychain service name of OAuth2 logins. */
export const OAUTH_KEYCHAIN_SERVICE = 'oaakit-oauth';

const storedLoginSchema = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_at: z.number(),
  scope: z.string(),
});

/** A stored OAuth2 login. */
export interface OAuthLogin {
  clientId: string;
  clientSecret: string;
  tokens: OAuthTokens;
}

/** Stores (or replaces) the OAuth2 login of a service URL. */
export async function saveOAuthLogin(url: string, login: OAuthLogin): Promise<void> {
  const value = {
    client_id: login.clientId,
    client_secret: login.clientSecret,
    access_token: login.tokens.accessToken,
    refresh_token: login.tokens.refreshToken,
    expires_at: login.tokens.expiresAt,
    scope: login.tokens.scope,
  };
  await writeKeychain(OAUTH_KEYCHAIN_SERVICE, accountOf(url), JSON.stringify(value));
}

/** The stored OAuth2 login of a service URL, or undefined (none, or an entry this version cannot read). */
export async function getOAuthLogin(
  url: string,
  read: (service: string, account: string) => Promise<string | undefined> = readKeychain,
): Promise<OAuthLogin | undefined> {
  const text = await read(OAUTH_KEYCHAIN_SERVICE, accountOf(url));
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = storedLoginSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const v = parsed.data;
  return {
    clientId: v.client_id,
    clientSecret: v.client_secret,
    tokens: {
      accessToken: v.access_token,
      refreshToken: v.refresh_token,
      expiresAt: v.expires_at,
      scope: v.scope,
    },
  };
}

/** Deletes the OAuth2 login of a service URL; false when there was none. */
export function deleteOAuthLogin(url: string): Promise<boolean> {
  return deleteKeychain(OAUTH_KEYCHAIN_SERVICE, accountOf(url));
}

/** A client credential for a stored login: refreshes itself and writes rotated tokens back first. */
export function oauthCredentialOf(url: string, login: OAuthLogin): OAuthCredential {
  return createOAuthCredential({
    url,
    clientId: login.clientId,
    clientSecret: login.clientSecret,
    tokens: login.tokens,
    store: (tokens) => saveOAuthLogin(url, { ...login, tokens }),
    // Another oaa process (a daemon, a second command) may have rotated the tokens meanwhile.
    load: async () => {
      const stored = await getOAuthLogin(url);
      return stored?.clientId === login.clientId ? stored.tokens : undefined;
    },
  });
}
