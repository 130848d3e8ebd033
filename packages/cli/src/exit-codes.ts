/**
 * The exit codes of `oaa`, and the one mapping from an error to its exit code. Scripts rely on these
 * numbers: they never change meaning once released.
 */
import { OaaError } from '@oaakit/core';

/** Every exit code `oaa` uses. */
export const EXIT = {
  /** Success. */
  OK: 0,
  /** An unexpected error (a bug, or a failure no other code describes). */
  ERROR: 1,
  /** The payload (or a connector's output) failed local validation, or the service rejected it as invalid. */
  VALIDATION: 2,
  /** The deletion guard refused a push that would remove too many identities (`--force` overrides). */
  GUARD: 3,
  /** A call to the service failed: the push, a provider or data-source call, or the network. */
  SERVICE: 4,
  /** Configuration or credential problem: config file, plugin, secret, API key, keychain. */
  CONFIG: 5,
  /** The run succeeded with warnings and `--fail-on-warnings` was given. */
  WARNINGS: 6,
  /** A provider or data source named on the command line does not exist. */
  NOT_FOUND: 7,
  /** A connector failed while extracting. */
  CONNECTOR: 8,
  /** The state of a data source is locked by another run, or cannot be read. */
  STATE: 9,
  /** Wrong flags or arguments, or a file named on the command line that cannot be used. */
  USAGE: 64,
  /** Interrupted (Ctrl-C). */
  ABORTED: 130,
} as const;

/** One of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const BY_CODE: Readonly<Record<string, ExitCode>> = {
  VALIDATION_FAILED: EXIT.VALIDATION,
  DELETION_GUARD: EXIT.GUARD,
  PUSH_FAILED: EXIT.SERVICE,
  NETWORK_ERROR: EXIT.SERVICE,
  TIMEOUT: EXIT.SERVICE,
  BAD_RESPONSE: EXIT.SERVICE,
  PAYLOAD_TOO_LARGE: EXIT.SERVICE,
  PROVIDER_TEMPLATE_MISMATCH: EXIT.SERVICE,
  CONFIG_INVALID: EXIT.CONFIG,
  CONFIG_NOT_FOUND: EXIT.CONFIG,
  CONNECTOR_NOT_FOUND: EXIT.CONFIG,
  PLUGIN_INVALID: EXIT.CONFIG,
  PLUGIN_API_VERSION: EXIT.CONFIG,
  SECRET_MISSING: EXIT.CONFIG,
  CREDENTIALS_MISSING: EXIT.CONFIG,
  CREDENTIALS_INVALID: EXIT.CONFIG,
  KEYCHAIN_UNAVAILABLE: EXIT.CONFIG,
  TARGET_MISSING: EXIT.CONFIG,
  DAEMON_LISTEN_FAILED: EXIT.CONFIG,
  TEMPLATE_MISSING: EXIT.CONFIG,
  PLUGIN_NAME_INVALID: EXIT.USAGE,
  TARGET_NOT_EMPTY: EXIT.USAGE,
  FILE_UNREADABLE: EXIT.USAGE,
  ICON_INVALID: EXIT.USAGE,
  TEMPLATE_UNKNOWN: EXIT.USAGE,
  USAGE: EXIT.USAGE,
  WARNINGS: EXIT.WARNINGS,
  PROVIDER_NOT_FOUND: EXIT.NOT_FOUND,
  DATA_SOURCE_NOT_FOUND: EXIT.NOT_FOUND,
  EXTRACT_FAILED: EXIT.CONNECTOR,
  STATE_LOCKED: EXIT.STATE,
  STATE_CORRUPT: EXIT.STATE,
  ABORTED: EXIT.ABORTED,
};

/** Whether an error came from the service (a `ServiceError` of `@oaakit/client`: it carries an HTTP status). */
function isServiceError(error: OaaError): boolean {
  return typeof (error as { status?: unknown }).status === 'number';
}

/** Whether an error is oclif's own (a flag or argument problem found while parsing). */
function isOclifError(error: unknown): boolean {
  return error instanceof Error && typeof (error as { oclif?: unknown }).oclif === 'object';
}

/**
 * The exit code of an error: by its `OaaError.code`; a service error answering 400 with field
 * violations is a validation error, any other service error a service failure.
 */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof OaaError) {
    const mapped = BY_CODE[error.code];
    if (mapped !== undefined) return mapped;
    if (isServiceError(error)) {
      const violations = (error as { violations?: unknown[] }).violations ?? [];
      return violations.length > 0 ? EXIT.VALIDATION : EXIT.SERVICE;
    }
    return EXIT.ERROR;
  }
  if (isOclifError(error)) return EXIT.USAGE;
  return EXIT.ERROR;
}
