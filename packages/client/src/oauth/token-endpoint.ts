/**
 * Calls of the OAuth2 token endpoint (`POST /oauth/token`, form-encoded, RFC 6749): the refresh grant
 * the OAuth2 credential needs. Errors carry the endpoint's `error` code, never a token or secret.
 */
import { OaaError, oauthTokenResponseSchema } from '@oaakit/core';

/** Tokens of an OAuth2 login; `expiresAt` is when the access token expires, in epoch milliseconds. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  scope: string;
}

/** Where the token endpoint is and who the client is. */
export interface TokenEndpointOptions {
  /** The service's base URL. */
  url: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof globalThis.fetch;
  /** Time limit of one call; default 30 s. */
  timeoutMs?: number;
}

/** Posts `fields` to the token endpoint and answers the new tokens; throws `OAUTH_REFUSED` on an RFC 6749 error. */
export async function requestTokens(
  options: TokenEndpointOptions,
  fields: Record<string, string>,
  nowMs: number,
): Promise<OAuthTokens> {
  const endpoint = `${options.url.replace(/\/+$/, '')}/oauth/token`;
  const body = new URLSearchParams({
    ...fields,
    client_id: options.clientId,
    client_secret: options.clientSecret,
  });
  let res: Response;
  try {
    res = await (options.fetch ?? globalThis.fetch)(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (cause) {
    throw new OaaError(
      `POST /oauth/token: no answer (${cause instanceof Error ? cause.message : String(cause)})`,
      {
        code: 'NETWORK_ERROR',
        cause,
      },
    );
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const error = (json as { error?: unknown } | undefined)?.error;
    const description = (json as { error_description?: unknown } | undefined)?.error_description;
    const code = typeof error === 'string' ? error : `HTTP ${res.status}`;
    throw new OaaError(
      `the token endpoint refused the ${fields.grant_type ?? ''} grant: ${code}${typeof description === 'string' ? ` (${description})` : ''}`,
      {
        code: res.status >= 500 ? 'BAD_RESPONSE' : 'OAUTH_REFUSED',
        details: { status: res.status, error: code },
        hints: ['log in again: oaa auth login --oauth --client-id <CLIENT_ID>'],
      },
    );
  }
  const parsed = oauthTokenResponseSchema.safeParse(json);
  if (!parsed.success)
    throw new OaaError('POST /oauth/token: the answer is not a token response', { code: 'BAD_RESPONSE' });
  return {
    accessToken: parsed.data.access_token,
    refreshToken: parsed.data.refresh_token,
    expiresAt: nowMs + parsed.data.expires_in * 1000,
    scope: parsed.data.scope,
  };
}
