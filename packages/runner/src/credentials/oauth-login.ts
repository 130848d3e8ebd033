/**
 * The OAuth2 login of a native app (RFC 8252): a loopback redirect on 127.0.0.1 and a port picked
 * by the OS, PKCE S256 and a random `state` checked on return (oauth4webapi; the challenge is core's
 * `pkceChallenge`, the one the emulator checks the verifier against), the browser opened on the
 * authorization URL (or the URL printed), the code exchanged for tokens.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthTokens } from '@oaakit/client';
import { OaaError, pkceChallenge } from '@oaakit/core';
import type * as OAuth from 'oauth4webapi';
import { RUNNER_ERROR_CODES } from '../codes.js';

/** Path of the loopback redirect URI; register `http://127.0.0.1/callback` for the app. */
export const LOOPBACK_CALLBACK_PATH = '/callback';

/** Options of {@link oauthLogin}. */
export interface OAuthLoginOptions {
  /** The service's base URL. */
  url: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  /** Shows the authorization URL to the user: opens a browser and/or prints it. */
  open: (authorizationUrl: string) => void | Promise<void>;
  /** Give up waiting for the browser after this long; default 5 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

function failed(message: string, hints: string[] = [], cause?: unknown): OaaError {
  return new OaaError(message, { code: RUNNER_ERROR_CODES.OAUTH_LOGIN_FAILED, hints, cause });
}

function page(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  res.end(
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>oaa login</title><main><p>${escaped}</p></main></html>`,
  );
}

/**
 * Runs the login and answers the tokens. The loopback server answers one callback and closes.
 *
 * @example
 * const tokens = await oauthLogin({ url, clientId, clientSecret, scopes: ['profile'], open: print });
 */
export async function oauthLogin(options: OAuthLoginOptions): Promise<OAuthTokens> {
  // Loaded here: only `oaa auth login` with OAuth2 needs it.
  const oauth: typeof OAuth = await import('oauth4webapi');
  const base = options.url.replace(/\/+$/, '');
  const issuer = new URL(base);
  const as: OAuth.AuthorizationServer = {
    issuer: issuer.href,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
  };
  const client: OAuth.Client = { client_id: options.clientId };
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = pkceChallenge(verifier);
  const state = oauth.generateRandomState();

  let resolveCallback: (value: URL) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const callback = new Promise<URL>((resolve, reject) => {
    resolveCallback = resolve;
    fail = reject;
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || at.pathname !== LOOPBACK_CALLBACK_PATH) return page(res, 404, 'Not found.');
    if (at.searchParams.get('state') !== state) {
      // Not the answer to this login (a stale tab, or a forged request): refuse it and keep waiting.
      return page(res, 400, 'This answer does not belong to the login under way. Return to the terminal.');
    }
    const denied = at.searchParams.has('error');
    page(
      res,
      200,
      denied
        ? 'The login was not completed. You can close this window and return to the terminal.'
        : 'Logged in. You can close this window and return to the terminal.',
    );
    resolveCallback(at);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://127.0.0.1:${port}${LOOPBACK_CALLBACK_PATH}`;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  const timer = setTimeout(
    () =>
      fail(
        failed(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`, [
          'run the login again',
        ]),
      ),
    timeoutMs,
  );
  const onAbort = (): void => fail(new OaaError('login cancelled', { code: 'ABORTED' }));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const authorizationUrl = new URL(as.authorization_endpoint!);
    for (const [name, value] of Object.entries({
      client_id: options.clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: options.scopes.join(' '),
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      authorizationUrl.searchParams.set(name, value);
    await options.open(authorizationUrl.href);
    const returned = await callback;

    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, client, returned, state);
    } catch (cause) {
      const error = cause instanceof oauth.AuthorizationResponseError ? cause.error : undefined;
      throw failed(
        error === 'access_denied'
          ? 'the login was cancelled on the consent page (access_denied)'
          : `the service refused the login: ${error ?? (cause instanceof Error ? cause.message : String(cause))}`,
        [
          `check that the app allows the scopes ${options.scopes.join(' ')} and the redirect URI http://127.0.0.1${LOOPBACK_CALLBACK_PATH}`,
        ],
        cause,
      );
    }
    const insecure = issuer.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {};
    let tokens: OAuth.TokenEndpointResponse;
    const startedAt = Date.now();
    try {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretPost(options.clientSecret),
        params,
        redirectUri,
        verifier,
        { ...insecure, signal: AbortSignal.timeout(30_000) },
      );
      tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    } catch (cause) {
      const error =
        cause instanceof oauth.ResponseBodyError
          ? cause.error
          : cause instanceof Error
            ? cause.message
            : String(cause);
      throw failed(
        `the token endpoint refused the code: ${error}`,
        ['check the client id and client secret'],
        cause,
      );
    }
    if (tokens.refresh_token === undefined) throw failed('the token endpoint answered no refresh token');
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: startedAt + (tokens.expires_in ?? 0) * 1000,
      scope: tokens.scope ?? options.scopes.join(' '),
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
