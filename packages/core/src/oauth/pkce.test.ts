import { describe, expect, it } from 'vitest';
import { pkceChallenge } from './pkce.js';

describe('pkceChallenge', () => {
  it("answers RFC 7636's own S256 example (appendix B)", () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('answers base64url without padding, 43 characters for any verifier', () => {
    const challenge = pkceChallenge('a'.repeat(128));
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).not.toBe(pkceChallenge('a'.repeat(127) + 'b'));
  });
});
