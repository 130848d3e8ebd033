/**
 * An OAuth2 login as the client's bearer credential: answers the access token, refreshing it shortly
 * before it expires, once even when many calls ask at the same time, and hands the rotated tokens to
 * `store` before using them (the service revokes the previous refresh token on rotation, so tokens
 * not stored would be lost with the process).
 */
import { requestTokens, type OAuthTokens, type TokenEndpointOptions } from './token-endpoint.js';

/** What the client sends as `Authorization: Bearer ...`. */
export interface BearerCredential {
  /** The bearer value for the next request. */
  bearer(): Promise<string>;
  /**
   * Called when the service answered 401 to `rejected`: a fresh bearer value to resend the request
   * with once, or undefined to give up.
   */
  renew?(rejected: string): Promise<string | undefined>;
}

/** Options of {@link createOAuthCredential}. */
export interface OAuthCredentialOptions extends TokenEndpointOptions {
  /** The tokens of the login (from the code exchange, or stored earlier). */
  tokens: OAuthTokens;
  /** Persists rotated tokens (e.g. in the OS keychain); awaited before they are used. */
  store: (tokens: OAuthTokens) => Promise<void>;
  /**
   * Reads the stored tokens back before a refresh: when another process sharing the store already
   * rotated them, its tokens are adopted instead of presenting a refresh token it made stale (which
   * the service would take for reuse and answer by revoking the whole login).
   */
  load?: () => Promise<OAuthTokens | undefined>;
  /** Refresh this long before the access token expires; default 5 minutes. */
  refreshBeforeMs?: number;
  /** Current time in epoch milliseconds; default `Date.now`. */
  now?: () => number;
}

/** An OAuth2 credential. */
export interface OAuthCredential extends BearerCredential {
  /** The tokens in use (after the last refresh). */
  current(): OAuthTokens;
  /** Refreshes now (shared with any refresh already under way) and answers the new tokens. */
  refresh(): Promise<OAuthTokens>;
}

/**
 * Creates an OAuth2 credential for `createClient({ url, apiKey: credential })`.
 *
 * @example
 * const credential = createOAuthCredential({ url, clientId, clientSecret, tokens, store: saveTokens });
 * const client = createClient({ url, apiKey: credential });
 */
export function createOAuthCredential(options: OAuthCredentialOptions): OAuthCredential {
  const now = options.now ?? Date.now;
  const margin = options.refreshBeforeMs ?? 5 * 60_000;
  let tokens = options.tokens;
  let inflight: Promise<OAuthTokens> | undefined;

  const refresh = (): Promise<OAuthTokens> =>
    (inflight ??= (async () => {
      try {
        const stored = await options.load?.();
        if (stored !== undefined && stored.refreshToken !== tokens.refreshToken) {
          tokens = stored;
          if (now() < stored.expiresAt - margin) return stored;
        }
        const next = await requestTokens(
          options,
          { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
          now(),
        );
        await options.store(next);
        tokens = next;
        return next;
      } finally {
        inflight = undefined;
      }
    })());

  return {
    current: () => tokens,
    refresh,
    async bearer() {
      if (inflight) return (await inflight).accessToken;
      if (now() >= tokens.expiresAt - margin) return (await refresh()).accessToken;
      return tokens.accessToken;
    },
    // Refused before its expiry as we count it (another clock, or revoked): one refresh, shared by
    // every call refused with the same token; a refused refresh throws OAUTH_REFUSED.
    async renew(rejected) {
      if (inflight) return (await inflight).accessToken;
      if (tokens.accessToken !== rejected) return tokens.accessToken;
      const next = await refresh();
      // Adopted from the store, but refused all the same: rotate.
      return next.accessToken === rejected ? undefined : next.accessToken;
    },
  };
}
