/**
 * The one way the runner wraps an error in an `OaaError` of its own: the message says what failed
 * and ends with the cause's message, and nothing a user needs to act on is buried under `cause`.
 */
import { OaaError, isOaaError } from '@oaakit/core';
import type { OaaErrorCode, Violation } from '@oaakit/core';

function isViolation(value: unknown): value is Violation {
  const v = value as Partial<Violation> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.field === 'string' && typeof v.description === 'string'
  );
}

/** The field violations an error carries (a `ValidationError`'s, a service error's), or none. */
function violationsOf(error: OaaError<string>): Violation[] {
  const list = error.details['violations'];
  return Array.isArray(list) ? list.filter(isViolation) : [];
}

/**
 * The details a wrapping error gives its cause: its code and details as they were, and lifted to the
 * top the field violations and the service's request id, which the CLI shows and scripts read
 * without digging through `cause`.
 */
function causeDetails(cause: unknown): Record<string, unknown> {
  if (!isOaaError(cause)) return {};
  const violations = violationsOf(cause);
  const requestId = cause.details['requestId'];
  return {
    causeCode: cause.code,
    cause: cause.details,
    ...(typeof requestId === 'string' ? { requestId } : {}),
    ...(violations.length > 0 ? { violations } : {}),
  };
}

/** Options of {@link wrapCause}. */
export interface WrapCauseOptions {
  code: OaaErrorCode;
  /** What failed; the cause's message follows it after `: `. */
  message: string;
  /** Context of the wrapping error; the cause's code, details, violations and request id are added. */
  details?: Record<string, unknown>;
  /** Hints in front of the cause's own. */
  hints?: readonly string[];
  /** Whether the cause's hints are kept (default true): not when they say less than `hints`. */
  causeHints?: boolean;
  /** Hints after the cause's own, e.g. what became of the state. */
  trailingHints?: readonly string[];
}

/**
 * `cause` (anything thrown) as an `OaaError` with `code`: retryable when the cause is, its message
 * after `options.message`, its details and hints kept (see {@link WrapCauseOptions}).
 */
export function wrapCause(cause: unknown, options: WrapCauseOptions): OaaError {
  const inner = isOaaError(cause) ? cause : undefined;
  const text = cause instanceof Error ? cause.message : String(cause);
  return new OaaError(`${options.message}: ${text}`, {
    code: options.code,
    cause,
    retryable: inner?.retryable ?? false,
    details: { ...options.details, ...causeDetails(cause) },
    hints: [
      ...(options.hints ?? []),
      ...(options.causeHints === false ? [] : (inner?.hints ?? [])),
      ...(options.trailingHints ?? []),
    ],
  });
}
