/**
 * The one error base class of oaakit. Every package throws subclasses or instances of it, so the CLI
 * can map `code` to an exit code and `--json` output in one place.
 */
import type { OaaErrorCode } from './error-codes.js';

/** A field-level problem, in the shape of the service's `field_violations`. */
export interface Violation {
  /** JSON path of the offending value, e.g. `applications[0].local_users[3].groups[1]`. */
  field: string;
  /** What is wrong and, where it helps, what is allowed. */
  description: string;
}

/** Options of {@link OaaError}; `C` is the set of codes allowed (see `OaaErrorCodes`). */
export interface OaaErrorOptions<C extends string = OaaErrorCode> {
  /** Stable machine-readable code, e.g. `VALIDATION_FAILED`, `CONFIG_INVALID`. */
  code: C;
  /** The error that caused this one. */
  cause?: unknown;
  /** Whether repeating the same operation may succeed. */
  retryable?: boolean;
  /** Structured context. Values under keys that look secret are redacted. */
  details?: Record<string, unknown>;
  /** Short suggestions for the user: what to do next. */
  hints?: string[];
}

const SECRET_KEY = /(authorization|api[_-]?key|secret|token|password|credential|cookie)/i;

/** Replaces the values of secret-looking keys, recursively, with `[REDACTED]`. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && v !== undefined && v !== null ? '[REDACTED]' : redact(v, depth + 1);
  }
  return out;
}

/**
 * Base class of every error oaakit raises on purpose. `code` is one of the registered
 * {@link OaaErrorCode}s; a misspelled code does not compile. Errors whose codes are not oaakit's own
 * name their set: a service error's (`OaaError<string>`), a plugin's (`OaaError<'CSV_...'>`).
 *
 * @example
 * throw new OaaError('data source name must not be empty', { code: 'CONFIG_INVALID', hints: ['set dataSource'] });
 */
export class OaaError<C extends string = OaaErrorCode> extends Error {
  readonly code: C;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;
  readonly hints: string[];

  // NoInfer: the code is checked against C (by default every registered code), never widens it.
  constructor(message: string, options: OaaErrorOptions<NoInfer<C>>) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OaaError';
    this.code = options.code;
    this.retryable = options.retryable ?? false;
    this.details = redact(options.details ?? {}) as Record<string, unknown>;
    this.hints = options.hints ?? [];
  }

  /** A plain object for `--json` output and logs: no stack, secrets already redacted. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      details: this.details,
      hints: this.hints,
    };
  }
}

/**
 * Whether `value` is an `OaaError`, of any code: `instanceof` alone types the code of a generic class
 * as `any`; this types it as a string, which is what a caught error's code is.
 */
export function isOaaError(value: unknown): value is OaaError<string> {
  return value instanceof OaaError;
}

/** Violations spelled out in an error message; all of them stay in `violations`. */
const LISTED_VIOLATIONS = 50;

/** One indented `field: description` line per violation, the first 50 of them, for messages. */
export function listViolations(violations: readonly Violation[]): string {
  const lines = violations.slice(0, LISTED_VIOLATIONS).map((v) => `  ${v.field}: ${v.description}`);
  if (violations.length > LISTED_VIOLATIONS)
    lines.push(`  ... and ${violations.length - LISTED_VIOLATIONS} more (all are in violations)`);
  return lines.join('\n');
}

/** `the application payload has 2 errors:` and the list of them, for messages. */
export function describeInvalidPayload(template: string, errors: readonly Violation[]): string {
  const noun = errors.length === 1 ? 'error' : 'errors';
  return `the ${template} payload has ${errors.length} ${noun}:\n${listViolations(errors)}`;
}

/** A payload failed local validation; `violations` lists every error with its path. */
export class ValidationError extends OaaError {
  readonly violations: Violation[];
  constructor(
    message: string,
    violations: Violation[],
    options: Omit<Partial<OaaErrorOptions>, 'code'> = {},
  ) {
    super(message, { code: 'VALIDATION_FAILED', ...options, details: { ...options.details, violations } });
    this.name = 'ValidationError';
    this.violations = violations;
  }
}
