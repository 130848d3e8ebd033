/**
 * The spec's rules for an OAuth2 app's URLs: the base URL is `http` or `https`; each redirect URI
 * uses the base URL's scheme and belongs to its domain or a subdomain, unless "allow any redirect
 * URI" is on. Redirect URIs carry no fragment (RFC 6749 §3.1.2). Whatever the app allows, a
 * redirect URI never uses a scheme that runs code or reads files in the browser instead of reaching
 * an app (`javascript:`, `data:`, `vbscript:`, `file:`); a native app's private-use scheme
 * (RFC 8252 §7.1, `com.example.app:/callback`) is fine.
 */
import type { Violation } from '@oaakit/core';

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Schemes a redirect URI may never use, with the colon as `URL.protocol` spells them (lower case). */
export const REFUSED_REDIRECT_SCHEMES: readonly string[] = ['javascript:', 'data:', 'vbscript:', 'file:'];

/**
 * Why `text` may never be a redirect URI (its scheme), or undefined. Read as browsers read it:
 * `URL` drops leading spaces and control characters and lower-cases the scheme.
 */
export function refusedRedirectScheme(text: string): string | undefined {
  const uri = parse(text);
  if (!uri || !REFUSED_REDIRECT_SCHEMES.includes(uri.protocol)) return undefined;
  return `must not use the ${uri.protocol} scheme: a redirect URI must reach an app (http, https, or a private-use scheme such as com.example.app:/callback)`;
}

/** Whether `host` is `domain` or one of its subdomains (host names compare case-insensitively). */
export function withinDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase();
  const d = domain.toLowerCase();
  return h === d || h.endsWith(`.${d}`);
}

/** Violations of the base URL and redirect URI rules; empty when they hold. */
export function checkAppUrls(input: {
  base_url: string;
  redirect_uris: readonly string[];
  allow_any_redirect_uri: boolean;
}): Violation[] {
  const out: Violation[] = [];
  const base = parse(input.base_url);
  if (!base || (base.protocol !== 'http:' && base.protocol !== 'https:') || base.hostname === '') {
    out.push({ field: 'base_url', description: 'must be an absolute http or https URL' });
  }
  input.redirect_uris.forEach((text, i) => {
    const field = `redirect_uris[${i}]`;
    const uri = parse(text);
    if (!uri) return out.push({ field, description: 'must be an absolute URI' });
    const refused = refusedRedirectScheme(text);
    if (refused !== undefined) return out.push({ field, description: refused });
    if (uri.hash !== '' || text.includes('#'))
      return out.push({ field, description: 'must not contain a fragment (#)' });
    if (input.allow_any_redirect_uri || !base) return;
    if (uri.protocol !== base.protocol)
      return out.push({
        field,
        description: `must use the base URL's scheme (${base.protocol.slice(0, -1)})`,
      });
    if (!withinDomain(uri.hostname, base.hostname))
      return out.push({
        field,
        description: `must belong to the base URL's domain ${base.hostname} or a subdomain (or turn on allow_any_redirect_uri)`,
      });
    return undefined;
  });
  const seen = new Set<string>();
  input.redirect_uris.forEach((text, i) => {
    if (seen.has(text)) out.push({ field: `redirect_uris[${i}]`, description: 'is listed twice' });
    seen.add(text);
  });
  return out;
}
