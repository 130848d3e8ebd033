/**
 * Headers on every answer of the emulator: `X-Content-Type-Options: nosniff` (a browser never takes
 * an answer for another type than it says), `Referrer-Policy: no-referrer` (the console's pages
 * override it with `same-origin`), and under TLS `Strict-Transport-Security`. Console answers (its
 * pages, its JSON views, the session, and API calls made with a console session) also get
 * `Cache-Control: no-store`: they carry keys, client secrets and CSRF tokens.
 */
import type { FastifyReply } from 'fastify';

/**
 * HSTS lifetime: one hour. Browsers keep HSTS by host name, for every port (they ignore it from an
 * IP address such as the default 127.0.0.1): a year-long policy on `localhost` would turn every other
 * plain-HTTP development server on localhost into an HTTPS one long after the emulator has stopped.
 */
export const HSTS_MAX_AGE_S = 3600;

const CONSOLE_PATH = /^\/console(\/|$)/;
const CONSOLE_ASSET_PATH = /^\/console\/assets\//;

/** Sets the headers every answer carries; `path` is the request's path as the router decoded it. */
export function setSecurityHeaders(reply: FastifyReply, input: { tls: boolean; path: string }): void {
  void reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer');
  if (input.tls) void reply.header('strict-transport-security', `max-age=${HSTS_MAX_AGE_S}`);
  if (CONSOLE_PATH.test(input.path) && !CONSOLE_ASSET_PATH.test(input.path)) setNoStore(reply);
}

/** Marks an answer as never to be stored by a browser or proxy. */
export function setNoStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store');
}
