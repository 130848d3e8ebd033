/**
 * PKCE (RFC 7636): the S256 code challenge of a code verifier, computed the same way by an OAuth2
 * client that sends it and by the server that checks the verifier against it.
 */
import { createHash } from 'node:crypto';

/**
 * The S256 challenge of `verifier`: BASE64URL(SHA256(ASCII(verifier))), without padding. A verifier
 * is 43 to 128 characters of `A-Z a-z 0-9 - . _ ~` (checking that is the caller's part).
 *
 * @example
 * pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'); // 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'
 */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
