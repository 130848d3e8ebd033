/**
 * Reading and writing the console's cookies (HttpOnly, SameSite=Lax, Path=/). Over TLS they are
 * Secure and named with the `__Host-` prefix, which a browser accepts only from a secure origin,
 * with Path=/ and no Domain: no subdomain or plain-HTTP page can set or shadow them. Browsers keep
 * cookies by host, not by port: what that means over plain HTTP is in this package's README.md,
 * "The console's session cookie and ports".
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const MAX_COOKIE_HEADER = 8192;

/** The name cookie `name` has on `req`'s connection: `__Host-<name>` over TLS. */
export function cookieName(req: FastifyRequest, name: string): string {
  return req.protocol === 'https' ? `__Host-${name}` : name;
}

/** The value of cookie `name` (prefixed over TLS, see `cookieName`) in the request, or undefined. */
export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined || header.length > MAX_COOKIE_HEADER) return undefined;
  const wanted = cookieName(req, name);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === wanted) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Appends a `Set-Cookie` for `name` (prefixed over TLS); `maxAgeS` 0 deletes it. */
export function setCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeS: number,
): void {
  const attributes = [
    `${cookieName(req, name)}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeS}`,
  ];
  if (req.protocol === 'https') attributes.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  void reply.header('set-cookie', [...list, attributes.join('; ')]);
}
