import { ValidationError, type Violation } from '../errors.js';

/**
 * Throws one `ValidationError` listing every violation, when there is any. `what` names the input
 * for the user, e.g. `the previous payload`.
 */
export function throwIfViolations(violations: readonly Violation[], what: string, action: string): void {
  const first = violations[0];
  if (first === undefined) return;
  const more = violations.length === 1 ? '' : ` (and ${violations.length - 1} more)`;
  throw new ValidationError(`${what} cannot be ${action}: ${first.field}: ${first.description}${more}`, [
    ...violations,
  ]);
}
