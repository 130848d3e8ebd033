/**
 * Who may call each route. Every route declares it in its options (`allow(...)` below); the
 * emulator refuses to start with a route that does not. Access is decided on the route fastify
 * matched, after it decoded the path, never on the raw URL: a prefix test on the raw URL let
 * `/%5Femulator/api_keys` through without a key.
 */
import { isOAuthScope, type OAuthScope } from '@oaakit/core';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { isRole, ROLES, type Role } from './api-keys.js';

/**
 * Who may call a route: the roles whose API keys it accepts; `'public'` for no credential at all;
 * `'session'` for a signed-in console user (the session cookie, see console/auth/); `'oauth_token'`
 * for an OAuth2 access token only (no API key), holding one of the route's `scopes`.
 */
export type RouteAccess = readonly Role[] | 'public' | 'session' | 'oauth_token';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; set with `allow(...)`. */
    allow?: RouteAccess;
    /** OAuth2 scopes whose access tokens the route also accepts; see `tokenScopesOf`. */
    scopes?: readonly OAuthScope[];
  }
}

/** Any active key: the service's OAA endpoints (the spec names no role for them). */
export const ANY_KEY: RouteAccess = ROLES;
/** The spec's private configuration endpoints: `admin` or `system_monitoring`. */
export const ADMIN_OR_MONITORING: RouteAccess = ['admin', 'system_monitoring'];
/** `admin` only: the `/_emulator` controls, which stand in for the service's administration interface. */
export const ADMIN: RouteAccess = ['admin'];
/** No key. Nothing the spec describes is public ("every request carries the bearer credential"). */
export const PUBLIC: RouteAccess = 'public';
/**
 * A signed-in console user: the console pages and the OAuth2 consent page. Without a session, a
 * GET is redirected to the sign-in page (which comes back after), anything else gets 401. Handlers
 * read the session with `requireSession(req)` and check forms with `checkCsrf(req)`.
 */
export const SESSION: RouteAccess = 'session';
/** An OAuth2 access token holding one of the route's scopes (`/oauth/userinfo`); API keys get 401. */
export const OAUTH_TOKEN: RouteAccess = 'oauth_token';

/** The emulator's scope for the OAA endpoints: what ANY_KEY routes accept from access tokens. */
export const INTEGRATIONS_SCOPE: OAuthScope = 'oaa:integrations';

/** Optional parts of a declaration. */
export interface AllowOptions {
  /**
   * OAuth2 scopes whose access tokens may call the route. Default: `oaa:integrations` on routes that
   * accept any key (the OAA endpoints), none elsewhere (admin and private routes take keys only).
   */
  scopes?: readonly OAuthScope[];
}

/**
 * The route options declaring who may call a route: pass as the options argument.
 *
 * @example
 * app.get('/_emulator/clock', allow(ADMIN), () => clockView(ctx));
 */
export function allow(
  access: RouteAccess,
  options: AllowOptions = {},
): { config: { allow: RouteAccess; scopes?: readonly OAuthScope[] } } {
  return { config: { allow: access, ...(options.scopes ? { scopes: options.scopes } : {}) } };
}

/** Whether `value` is a usable declaration: `'public'`, `'session'`, `'oauth_token'` or a non-empty list of roles. */
export function isRouteAccess(value: unknown): value is RouteAccess {
  if (value === 'public' || value === 'session' || value === 'oauth_token') return true;
  return Array.isArray(value) && value.length > 0 && value.every(isRole);
}

/** The scopes whose access tokens a route with `access` (and declared `scopes`) accepts. */
export function tokenScopesOf(
  access: RouteAccess,
  scopes: readonly OAuthScope[] | undefined,
): readonly OAuthScope[] {
  if (scopes !== undefined) return scopes;
  if (Array.isArray(access) && access.includes('member')) return [INTEGRATIONS_SCOPE];
  return [];
}

/** A registered route and who may call it. */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess;
  /** The scopes whose OAuth2 access tokens the route accepts. */
  scopes: readonly OAuthScope[];
}

const declared = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/**
 * Makes `app` refuse any route registered from now on without an access declaration, and remember
 * the declared ones (see `declaredRoutes`). Call before registering routes.
 */
export function requireRouteAccess(app: FastifyInstance): void {
  const routes: DeclaredRoute[] = [];
  declared.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const access: unknown = route.config?.allow;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!isRouteAccess(access)) {
      throw new Error(
        `route ${methods.join(',')} ${route.url} declares no access: register it with allow(ANY_KEY | ADMIN_OR_MONITORING | ADMIN | PUBLIC | SESSION | OAUTH_TOKEN) from auth/route-access.ts`,
      );
    }
    const declaredScopes: unknown = route.config?.scopes;
    if (
      declaredScopes !== undefined &&
      !(
        Array.isArray(declaredScopes) && declaredScopes.every((s) => typeof s === 'string' && isOAuthScope(s))
      )
    ) {
      throw new Error(`route ${methods.join(',')} ${route.url} declares unknown OAuth2 scopes`);
    }
    const scopes = tokenScopesOf(access, declaredScopes);
    if (access === 'oauth_token' && scopes.length === 0)
      throw new Error(`route ${methods.join(',')} ${route.url} accepts access tokens but names no scope`);
    for (const method of methods) routes.push({ method, url: route.url, access, scopes });
  });
}

/** Every route registered on `app` since `requireRouteAccess`, with who may call it. */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return declared.get(app) ?? [];
}
