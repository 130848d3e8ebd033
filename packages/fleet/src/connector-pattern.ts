/**
 * `oaa worker --connectors PATTERN`: which connectors a worker runs. A comma-separated list of
 * globs over connector ids, `*` for any run of characters and `?` for one (`hr-*,scim-eu-?`).
 */
import picomatch from 'picomatch';
import { OaaError } from '@oaakit/core';
import { FLEET_ERROR_CODES } from './fleet-codes.js';

/** A predicate over connector ids; everything when the pattern is undefined. */
export function connectorMatcher(pattern: string | undefined): (connectorId: string) => boolean {
  if (pattern === undefined) return () => true;
  const globs = pattern.split(',').map((g) => g.trim());
  const bad = globs.find((g) => !/^[a-z0-9._*?-]+$/.test(g));
  if (bad !== undefined) {
    throw new OaaError(`--connectors: ${JSON.stringify(bad)} is not a glob of connector ids`, {
      code: FLEET_ERROR_CODES.PATTERN_INVALID,
      hints: [
        'comma-separated globs of lower-case ids, letters, digits, ".", "_", "-", "*" and "?": hr-*,scim-eu-?',
      ],
    });
  }
  const isMatch = picomatch(globs, { dot: true });
  // One argument only: picomatch's second asks for a result object (what `filter` would pass).
  return (id) => isMatch(id);
}
