/**
 * The path of a request as the router understood it. Fault matching, call recording and logs use it
 * rather than the raw URL, so that `/%61pi/...` is faulted and recorded like `/api/...`, and
 * `/%5Femulator/...` is never taken for an API call.
 */
import type { FastifyRequest } from 'fastify';

/** Where a request went. */
export interface RequestTarget {
  /**
   * The matched route's pattern filled with its decoded parameters (so without a trailing slash the
   * router ignored), or for a path no route matched, the path decoded as the router decodes it
   * (`decodeURI`: `%2F` and `%3A` stay encoded), or as sent when it does not decode.
   */
  path: string;
  /** The route pattern fastify matched, undefined when none did (a 404). */
  route: string | undefined;
  /** A test control under `/_emulator`, or a console page under `/console`: never faulted, never recorded as an API call. */
  control: boolean;
}

const EMULATOR_ROUTE = /^\/(_emulator|console)(\/|$)/;
// For paths no route matched, any spelling of /_emulator counts: case, extra slashes, `%2F`.
const EMULATOR_LOOSE = /^\/+(_emulator|console)(\/|$)/i;
// find-my-way route syntax: `::` is a literal colon, `:name` a parameter, `*` the wildcard.
const PATTERN_PART = /::|:([A-Za-z0-9_]+)|\*/g;

/** The raw path of `req`, without the query string. */
export function rawPathOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q === -1 ? req.url : req.url.slice(0, q);
}

/** The raw query string of `req`, without the leading `?`. */
export function queryOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q === -1 ? '' : req.url.slice(q + 1);
}

function decodeLeniently(path: string, decode: (s: string) => string): string {
  try {
    return decode(path);
  } catch {
    return path;
  }
}

function fill(pattern: string, params: Record<string, string | undefined>): string {
  return pattern.replace(PATTERN_PART, (part, name: string | undefined) => {
    if (part === '::') return ':';
    return params[name ?? '*'] ?? '';
  });
}

/** Where `req` went; see `RequestTarget`. */
export function targetOf(req: FastifyRequest): RequestTarget {
  const route = req.is404 ? undefined : req.routeOptions.url;
  if (route === undefined) {
    const raw = rawPathOf(req);
    const control = EMULATOR_LOOSE.test(decodeLeniently(raw, decodeURIComponent));
    return { path: decodeLeniently(raw, decodeURI), route, control };
  }
  const params = (req.params ?? {}) as Record<string, string | undefined>;
  return { path: fill(route, params), route, control: EMULATOR_ROUTE.test(route) };
}
