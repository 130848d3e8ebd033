/**
 * The checks of an authorization request (`GET /oauth/authorize`, and again when the consent form
 * comes back): a known, active client; a redirect URI matching one it registered exactly (but for the
 * port of a loopback IP redirect, RFC 8252 §7.3; or any absolute URI when the app allows any); `response_type=code`; registered scopes the app is allowed
 * (`openid` is not one); a `state`; an S256 PKCE challenge. Until the client and redirect URI are
 * known good, errors are shown on a page and never redirected (RFC 6749 §4.1.2.1).
 */
import { isOAuthScope, type OAuthApp, type OAuthScope } from '@oaakit/core';
import { getApp } from './apps.js';
import { refusedRedirectScheme } from './redirect-uris.js';

/** A request that passed every check. */
export interface AuthorizeRequest {
  app: OAuthApp;
  redirectUri: string;
  scopes: OAuthScope[];
  state: string;
  codeChallenge: string;
}

/** A check that failed. `redirect` is false while the redirect URI cannot be trusted. */
export interface AuthorizeFailure {
  error: 'invalid_request' | 'unauthorized_client' | 'unsupported_response_type' | 'invalid_scope';
  description: string;
  /** Where to send the error, when the redirect URI is trusted. */
  redirectUri?: string;
  state?: string;
}

/** The fields an authorization request carries (query or consent form). */
export const AUTHORIZE_FIELDS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

const MAX_LENGTH: Record<(typeof AUTHORIZE_FIELDS)[number], number> = {
  client_id: 100,
  response_type: 20,
  redirect_uri: 2048,
  scope: 500,
  state: 1024,
  code_challenge: 128,
  code_challenge_method: 10,
};
// RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/**
 * RFC 8252 §7.3: a native app's loopback redirect (`http://127.0.0.1:{port}/...`) gets a port picked
 * at run time, so a registered loopback IP URI matches on every part but the port.
 */
function loopbackMatches(registered: string, uri: string): boolean {
  let a: URL;
  let b: URL;
  try {
    a = new URL(registered);
    b = new URL(uri);
  } catch {
    return false;
  }
  if (a.protocol !== 'http:' || b.protocol !== 'http:' || !LOOPBACK_HOSTS.has(a.hostname)) return false;
  return (
    a.hostname === b.hostname &&
    a.pathname === b.pathname &&
    a.search === b.search &&
    a.username === '' &&
    b.username === '' &&
    b.hash === '' &&
    !uri.includes('#')
  );
}

function redirectMatches(app: OAuthApp, uri: string): boolean {
  if (app.redirect_uris.includes(uri)) return true;
  if (app.redirect_uris.some((registered) => loopbackMatches(registered, uri))) return true;
  if (!app.allow_any_redirect_uri) return false;
  try {
    const url = new URL(uri);
    return url.hash === '' && !uri.includes('#');
  } catch {
    return false;
  }
}

/** Runs every check on the request's fields (each a string, or an array when repeated). */
export function checkAuthorizeRequest(
  db: Parameters<typeof getApp>[0],
  fields: Record<string, unknown>,
): AuthorizeRequest | AuthorizeFailure {
  const value: Partial<Record<(typeof AUTHORIZE_FIELDS)[number], string>> = {};
  const problems: string[] = [];
  for (const name of AUTHORIZE_FIELDS) {
    const v = fields[name];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string') problems.push(`${name} must be given once`);
    else if (v.length > MAX_LENGTH[name])
      problems.push(`${name} must be at most ${MAX_LENGTH[name]} characters`);
    else value[name] = v;
  }
  const clientId = value.client_id;
  if (clientId === undefined)
    return { error: 'invalid_request', description: problems[0] ?? 'client_id is required' };
  const app = getApp(db, clientId);
  if (!app) return { error: 'invalid_request', description: `no OAuth2 app with client_id ${clientId}` };
  if (app.state !== 'ACTIVE')
    return { error: 'unauthorized_client', description: `the OAuth2 app ${app.client_name} is revoked` };
  const redirectUri = value.redirect_uri;
  if (redirectUri === undefined)
    return {
      error: 'invalid_request',
      description: problems.find((p) => p.startsWith('redirect_uri')) ?? 'redirect_uri is required',
    };
  // Never redirected to, even when registered (an app stored before this rule, or any URI allowed).
  const refused = refusedRedirectScheme(redirectUri);
  if (refused !== undefined) return { error: 'invalid_request', description: `redirect_uri ${refused}` };
  if (!redirectMatches(app, redirectUri))
    return {
      error: 'invalid_request',
      description: 'redirect_uri does not match a redirect URI registered for this app',
    };

  // From here on, errors go back to the client's redirect URI.
  const fail = (error: AuthorizeFailure['error'], description: string): AuthorizeFailure => ({
    error,
    description,
    redirectUri,
    ...(value.state === undefined ? {} : { state: value.state }),
  });
  if (problems.length > 0) return fail('invalid_request', problems.join('; '));
  if (value.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be code (the authorization code flow)');
  if (value.state === undefined)
    return fail('invalid_request', 'state is required: a per-request unpredictable value');
  if (value.code_challenge === undefined)
    return fail('invalid_request', 'code_challenge is required (PKCE with code_challenge_method=S256)');
  if (value.code_challenge_method !== 'S256')
    return fail(
      'invalid_request',
      'code_challenge_method must be S256; plain and missing methods are refused',
    );
  if (!S256_CHALLENGE.test(value.code_challenge))
    return fail(
      'invalid_request',
      'code_challenge must be the 43-character base64url SHA-256 of the code verifier',
    );
  const requested = (value.scope ?? '').split(' ').filter((s) => s !== '');
  if (requested.length === 0) return fail('invalid_scope', 'scope is required');
  const unknown = requested.filter((s) => !isOAuthScope(s));
  if (unknown.length > 0) return fail('invalid_scope', `unregistered scope: ${unknown.join(' ')}`);
  const unallowed = requested.filter((s) => !app.allowed_scopes.includes(s));
  if (unallowed.length > 0)
    return fail('invalid_scope', `scope not allowed for this app: ${unallowed.join(' ')}`);
  return {
    app,
    redirectUri,
    scopes: [...new Set(requested)] as OAuthScope[],
    state: value.state,
    codeChallenge: value.code_challenge,
  };
}

/** `redirectUri` with `params` added to its query. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(name, v);
  return url.toString();
}
