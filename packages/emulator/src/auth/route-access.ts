/**
 * Who may call each route. Every route declares it in its options (`allow(...)` below); the
 * emulator refuses to start with a route that does not. Access is decided on the route fastify
 * matched, after it decoded the path, never on the raw URL: a prefix test on the raw URL let
 * `/%5Femulator/api_keys` through without a key (issue 9).
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { isRole, ROLES, type Role } from './api-keys.js';

/** The roles whose keys a route accepts, or `'public'` for a route that needs no key at all. */
export type RouteAccess = readonly Role[] | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; set with `allow(...)`. */
    allow?: RouteAccess;
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
 * The route options declaring who may call a route: pass as the options argument.
 *
 * @example
 * app.get('/_emulator/clock', allow(ADMIN), () => clockView(ctx));
 */
export function allow(access: RouteAccess): { config: { allow: RouteAccess } } {
  return { config: { allow: access } };
}

/** Whether `value` is a usable declaration: `'public'` or a non-empty list of roles. */
export function isRouteAccess(value: unknown): value is RouteAccess {
  if (value === 'public') return true;
  return Array.isArray(value) && value.length > 0 && value.every(isRole);
}

/** A registered route and who may call it. */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess;
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
        `route ${methods.join(',')} ${route.url} declares no access: register it with allow(ANY_KEY | ADMIN_OR_MONITORING | ADMIN | PUBLIC) from auth/route-access.ts`,
      );
    }
    for (const method of methods) routes.push({ method, url: route.url, access });
  });
}

/** Every route registered on `app` since `requireRouteAccess`, with who may call it. */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return declared.get(app) ?? [];
}
