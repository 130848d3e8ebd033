/**
 * The console's pages call the emulator's own API routes from the browser (`/_emulator/api_keys`,
 * `/_emulator/oauth_apps`, the notification templates, ...), so a console action runs exactly the
 * API's code: its validation, its events, its errors. A signed-in console user acts as an `admin`
 * key would, on routes that accept `admin`, when the request carries no Authorization header and
 * carries the session's CSRF token in `x-csrf-token`, on reads too. A cross-site page cannot send
 * that header (it would need a CORS preflight the emulator never grants), so the session cookie
 * alone reaches nothing under the API: a plain link or form still gets the API's 401.
 */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/authorize.js';
import type { RouteAccess } from '../../auth/route-access.js';
import { sameSecret, sessionOf } from '../auth/request-session.js';
import type { EmulatorContext } from '../../context.js';

/** The header the console's script sends its session's CSRF token in. */
export const CONSOLE_CSRF_HEADER = 'x-csrf-token';

/**
 * The admin principal of a console request to an API route that accepts `admin`, or undefined when
 * the request is not one (then the route's usual credential check runs and answers as it always did).
 */
export function consoleSessionPrincipal(
  ctx: EmulatorContext,
  req: FastifyRequest,
  access: RouteAccess,
): Principal | undefined {
  if (req.headers.authorization !== undefined) return undefined;
  if (!Array.isArray(access) || !access.includes('admin')) return undefined;
  const token = req.headers[CONSOLE_CSRF_HEADER];
  if (typeof token !== 'string') return undefined;
  const session = sessionOf(ctx, req);
  if (session === undefined || !sameSecret(token, session.csrfToken)) return undefined;
  return { kind: 'key', role: 'admin', caller: `console:${session.user.sub}` };
}
