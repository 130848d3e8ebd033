/** What an error that wraps another keeps of it, so that nothing a user needs to act on is buried. */
import { OaaError } from '@oaakit/core';
import type { Violation } from '@oaakit/core';

function isViolation(value: unknown): value is Violation {
  const v = value as Partial<Violation> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.field === 'string' && typeof v.description === 'string'
  );
}

/** The field violations an error carries (a `ValidationError`'s, a service error's), or none. */
function violationsOf(error: OaaError): Violation[] {
  const list = error.details['violations'];
  return Array.isArray(list) ? list.filter(isViolation) : [];
}

/**
 * The details a wrapping error gives its cause: its code and details as they were, and lifted to the
 * top the field violations and the service's request id, which the CLI shows and scripts read
 * without digging through `cause`.
 */
export function causeDetails(cause: unknown): Record<string, unknown> {
  if (!(cause instanceof OaaError)) return {};
  const violations = violationsOf(cause);
  const requestId = cause.details['requestId'];
  return {
    causeCode: cause.code,
    cause: cause.details,
    ...(typeof requestId === 'string' ? { requestId } : {}),
    ...(violations.length > 0 ? { violations } : {}),
  };
}
