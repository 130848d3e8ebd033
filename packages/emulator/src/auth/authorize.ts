/**
 * Bearer authentication against the access a route declares (see route-access.ts): an API key of an
 * allowed role, or an OAuth2 access token holding one of the route's scopes, checked against the
 * stored state on every request. Session routes are admitted by console/auth/request-session.ts.
 */
import type { OAuthScope } from '@oaakit/core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { ACCESS_TOKEN_PREFIX, findAccessToken, type TokenGrant } from '../oauth/tokens.js';
import { activeKey, type Role } from './api-keys.js';
import type { RouteAccess } from './route-access.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Who made an authenticated request. `caller` names it for the caps kept per caller (open multipart
 * uploads): `api_key:<key id>`, `oauth:<client id>:<user id>` (an app acting for one user), or
 * `console:<user sub>` (a console session acting as an admin key).
 */
export type Principal =
  { kind: 'key'; role: Role; caller: string } | { kind: 'token'; grant: TokenGrant; caller: string };

const principals = new WeakMap<FastifyRequest, Principal>();

/** The caller of `req` as the request hook authenticated it, or undefined (public or session routes). */
export function principalOf(req: FastifyRequest): Principal | undefined {
  return principals.get(req);
}

/** Remembers the caller of `req` (the request hook does). */
export function rememberPrincipal(req: FastifyRequest, principal: Principal | undefined): void {
  if (principal) principals.set(req, principal);
}

/**
 * Checks the `Authorization` header against `access` and the route's token `scopes`; throws 401 or
 * 403 in the spec's error body. `what` names the call in the 403 message, e.g. `POST /_emulator/api_keys`.
 */
export function authorize(
  db: Db,
  route: { access: RouteAccess; scopes: readonly OAuthScope[]; nowMs: number },
  authorization: string | undefined,
  what: string,
): Principal | undefined {
  const { access, scopes } = route;
  if (access === 'public' || access === 'session') return undefined;
  const tokenOnly = access === 'oauth_token';
  const credential = tokenOnly ? 'Bearer <ACCESS_TOKEN>' : 'Bearer <API_KEY>';
  if (authorization === undefined || authorization === '') {
    throw new ApiError('Unauthenticated', {
      message: `missing Authorization header: send "Authorization: ${credential}"`,
    });
  }
  const match = BEARER.exec(authorization);
  if (!match)
    throw new ApiError('Unauthenticated', { message: `the Authorization header must be "${credential}"` });
  const secret = match[1]!;
  if (secret.startsWith(ACCESS_TOKEN_PREFIX)) {
    const grant = findAccessToken(db, secret, route.nowMs);
    if (!grant)
      throw new ApiError('Unauthenticated', { message: 'the access token is invalid, expired or revoked' });
    if (!grant.scopes.some((s) => scopes.includes(s))) {
      const message =
        scopes.length === 0
          ? `${what} does not accept OAuth2 access tokens; use an API key`
          : `the access token lacks the scope ${what} needs: one of ${scopes.join(', ')}`;
      // The spec: userinfo without the profile scope is a 401; elsewhere a missing scope is a 403.
      throw new ApiError(tokenOnly ? 'Unauthenticated' : 'PermissionDenied', { message });
    }
    return { kind: 'token', grant, caller: `oauth:${grant.clientId}:${grant.userId}` };
  }
  if (tokenOnly)
    throw new ApiError('Unauthenticated', {
      message: `${what} needs an OAuth2 access token, not an API key`,
    });
  const key = activeKey(db, secret);
  if (key === undefined)
    throw new ApiError('Unauthenticated', { message: 'the API key is invalid or revoked' });
  const { role } = key;
  if (!access.includes(role)) {
    throw new ApiError('PermissionDenied', {
      message: `role ${role} may not call ${what}; allowed: ${access.join(', ')}`,
    });
  }
  return { kind: 'key', role, caller: `api_key:${key.id}` };
}
