/** Reading and writing the console's cookies (HttpOnly, SameSite=Lax, Path=/, Secure over TLS). */
import type { FastifyReply, FastifyRequest } from 'fastify';

const MAX_COOKIE_HEADER = 8192;

/** The value of cookie `name` in the request, or undefined. */
export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined || header.length > MAX_COOKIE_HEADER) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Appends a `Set-Cookie` for `name`; `maxAgeS` 0 deletes it. */
export function setCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeS: number,
): void {
  const attributes = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeS}`];
  if (req.protocol === 'https') attributes.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  void reply.header('set-cookie', [...list, attributes.join('; ')]);
}
