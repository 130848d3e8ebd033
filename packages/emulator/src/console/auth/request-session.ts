/**
 * The session of a request, for the console pages and the consent page (routes declared
 * `allow(SESSION)`). The app's request hook resolves the session before such a route runs and sends
 * a visitor without one to the sign-in page; handlers then call `requireSession(req)`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { readCookie, setCookie } from './cookies.js';
import { findSession, SESSION_COOKIE, type ConsoleSession } from './sessions.js';

/** Where the sign-in page is served. */
export const SIGN_IN_PATH = '/console/login';
/** Where a signed-in user lands by default. */
export const CONSOLE_HOME = '/console';
/** The form field (or `x-csrf-token` header) carrying the CSRF token. */
export const CSRF_FIELD = 'csrf_token';

const resolved = new WeakMap<FastifyRequest, ConsoleSession>();

/** The live session of `req` (looked up once per request), or undefined. */
export function sessionOf(ctx: EmulatorContext, req: FastifyRequest): ConsoleSession | undefined {
  const known = resolved.get(req);
  if (known) return known;
  const id = readCookie(req, SESSION_COOKIE);
  const session = id === undefined ? undefined : findSession(ctx.db, id, ctx.clock.nowMs());
  if (session) resolved.set(req, session);
  return session;
}

/**
 * The session of a request to a `SESSION` route (resolved by the app's hook). Throws 401 when there
 * is none, which only happens on a route not declared `SESSION`.
 */
export function requireSession(req: FastifyRequest): ConsoleSession {
  const session = resolved.get(req);
  if (!session) throw new ApiError('Unauthenticated', { message: 'sign in to the console first' });
  return session;
}

/** The CSRF token to put in every form (hidden field `csrf_token`) of `session`'s pages. */
export function csrfToken(session: ConsoleSession): string {
  return session.csrfToken;
}

/** Whether two secrets are equal, in constant time. */
export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || a.length === 0) return false;
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A field of a parsed form body (first value), or undefined. */
export function formField(body: unknown, name: string): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/**
 * Checks the CSRF token of a state-changing request of a session route: the form field
 * `csrf_token`, or the `x-csrf-token` header for scripts. Throws 403 when missing or wrong.
 */
export function checkCsrf(req: FastifyRequest): void {
  const session = requireSession(req);
  const header = req.headers['x-csrf-token'];
  const sent = formField(req.body, CSRF_FIELD) ?? (typeof header === 'string' ? header : undefined);
  if (!sameSecret(sent, session.csrfToken)) {
    throw new ApiError('PermissionDenied', {
      message: 'the CSRF token is missing or does not match this session; reload the page and retry',
    });
  }
}

/** Whether the request's `Origin` is this emulator's own (scheme, host and port). */
function originIsOwn(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  return typeof origin === 'string' && host !== undefined && origin === `${req.protocol}://${host}`;
}

/**
 * Throws 403 unless `req` comes from a page of this emulator's own origin: `Sec-Fetch-Site:
 * same-origin`, as browsers send it, or (from a client that sends no fetch metadata) an `Origin`
 * equal to this one. A cookie alone does not do: browsers send cookies to every port of a host, and
 * a page on another port is same-site but not same-origin.
 */
export function requireSameOrigin(req: FastifyRequest): void {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' ? site === 'same-origin' : originIsOwn(req)) return;
  throw new ApiError('PermissionDenied', {
    message:
      "only the console's own pages get the session's CSRF token: the request must be same-origin (Sec-Fetch-Site: same-origin, or an Origin header equal to this emulator's)",
  });
}

/**
 * `next` when it is a path on this origin (`/console/...`, `/oauth/authorize?...`), else the console
 * home: the sign-in page never redirects off-site.
 */
export function safeNext(next: string | undefined): string {
  if (next === undefined || next.length > 4096) return CONSOLE_HOME;
  // eslint-disable-next-line no-control-regex
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(next))
    return CONSOLE_HOME;
  return next;
}

/** The sign-in page URL that comes back to `req`'s path after signing in. */
export function signInUrl(req: FastifyRequest): string {
  return `${SIGN_IN_PATH}?${new URLSearchParams({ next: safeNext(req.url) }).toString()}`;
}

/**
 * For the app's request hook on a `SESSION` route: true when the request has a session; otherwise a
 * page request (GET/HEAD) is redirected to sign-in and false is answered, and any other method is
 * refused with 401.
 */
export function admitSession(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply): boolean {
  if (sessionOf(ctx, req)) return true;
  if (req.method === 'GET' || req.method === 'HEAD') {
    void reply.redirect(signInUrl(req), 303);
    return false;
  }
  throw new ApiError('Unauthenticated', { message: 'sign in to the console first' });
}

/** Sets the session cookie (or clears it with `id` undefined). */
export function setSessionCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  id: string | undefined,
  maxAgeS: number,
): void {
  setCookie(req, reply, SESSION_COOKIE, id ?? '', id === undefined ? 0 : maxAgeS);
}
