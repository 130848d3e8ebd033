/**
 * The one error base class of oaakit. Every package throws subclasses or instances of it, so the CLI
 * can map `code` to an exit code and `--json` output in one place.
 */

/** A field-level problem, in the shape of the service's `field_violations`. */
export interface Violation {
  /** JSON path of the offending value, e.g. `applications[0].local_users[3].groups[1]`. */
  field: string;
  /** What is wrong and, where it helps, what is allowed. */
  description: string;
}

export interface OaaErrorOptions {
  /** Stable machine-readable code, e.g. `VALIDATION_FAILED`, `HTTP_ERROR`. */
  code: string;
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
 * Base class of every error oaakit raises on purpose.
 *
 * @example
 * throw new OaaError('data source name must not be empty', { code: 'CONFIG_INVALID', hints: ['set dataSource'] });
 */
export class OaaError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;
  readonly hints: string[];

  constructor(message: string, options: OaaErrorOptions) {
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
  constructor(message: string, violations: Violation[], options: Partial<OaaErrorOptions> = {}) {
    super(message, { code: 'VALIDATION_FAILED', ...options, details: { ...options.details, violations } });
    this.name = 'ValidationError';
    this.violations = violations;
  }
}
