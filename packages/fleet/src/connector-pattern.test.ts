import { describe, expect, it } from 'vitest';
import { connectorMatcher } from './connector-pattern.js';

describe('oaa worker --connectors', () => {
  it('matches comma-separated globs of connector ids, everything without a pattern', () => {
    const matches = connectorMatcher('hr-eu-*, scim-?');
    expect(['hr-eu-1', 'hr-eu-', 'scim-a'].filter(matches)).toEqual(['hr-eu-1', 'hr-eu-', 'scim-a']);
    expect(['hr-us-1', 'scim-ab', 'xhr-eu-1'].filter(matches)).toEqual([]);
    expect(connectorMatcher('a.b')('a.b')).toBe(true);
    expect(connectorMatcher('a.b')('axb')).toBe(false);
    expect(connectorMatcher(undefined)('anything')).toBe(true);
  });

  it('refuses a pattern with characters no connector id has, naming it', () => {
    expect(() => connectorMatcher('hr-*,HR/[x]')).toThrow(/"HR\/\[x\]" is not a glob of connector ids/);
  });
});
