/**
 * The exit codes of `oaa`, and the one mapping from an error to its exit code. Scripts rely on these
 * numbers: they never change meaning once released.
 */
import { isOaaError } from '@oaakit/core';
import type { OaaError, OaaErrorCode } from '@oaakit/core';
import type {} from './error-codes.js';
// The fleet's codes are registered by its module; a type import brings them in.
import type {} from '@oaakit/fleet';

/** Every exit code `oaa` uses. */
export const EXIT = {
  /** Success. */
  OK: 0,
  /** An unexpected error (a bug, or a failure no other code describes). */
  ERROR: 1,
  /**
   * The payload (or a connector's output) failed local validation, or the service refused the input
   * as invalid (400): the payload, or a value given on the command line such as a provider name.
   */
  VALIDATION: 2,
  /** The deletion guard refused a push that would remove too many identities (`--force` overrides). */
  GUARD: 3,
  /**
   * A call to the service failed without refusing the input or the key: the network, a timeout, an
   * error of the service itself (5xx), or an answer oaakit cannot use.
   */
  SERVICE: 4,
  /**
   * Configuration or credential problem: config file (also a provider or data-source name of it that
   * the service refused), plugin, secret, keychain, or an API key the service refused (401) or whose
   * role does not allow the call (403).
   */
  CONFIG: 5,
  /** The run succeeded with warnings and `--fail-on-warnings` was given. */
  WARNINGS: 6,
  /** A provider, data source or email template named on the command line does not exist. */
  NOT_FOUND: 7,
  /** A connector failed: while extracting, or its own check (`oaa run --check`). */
  CONNECTOR: 8,
  /** The state of a data source is locked by another run, or cannot be read. */
  STATE: 9,
  /** A connector failed a check of the acceptance kit (`oaa plugins test`). */
  ACCEPTANCE: 10,
  /** Wrong flags or arguments, or a file named on the command line that cannot be used. */
  USAGE: 64,
  /** Interrupted (Ctrl-C). */
  ABORTED: 130,
} as const;

/** One of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code of every code oaakit throws. `satisfies` makes the map exhaustive: a code added to
 * any package (`OaaErrorCodes`) does not compile until it is given an exit code here, and a
 * misspelled key is refused, so no code falls to {@link EXIT.ERROR} by accident.
 */
const BY_CODE = {
  // core
  VALIDATION_FAILED: EXIT.VALIDATION,
  PAYLOAD_NOT_SERIALIZABLE: EXIT.VALIDATION,
  TEMPLATE_UNKNOWN: EXIT.USAGE,
  CONNECTOR_INVALID: EXIT.CONFIG,
  // Mistakes in code calling oaakit (a plugin's or oaakit's own): bugs, not the user's input.
  INCREMENTAL_NOT_SUPPORTED: EXIT.ERROR,
  DUPLICATE_ENTITY: EXIT.ERROR,
  UNKNOWN_REFERENCE: EXIT.ERROR,
  STREAM_CONSUMED: EXIT.ERROR,
  INVALID_ARGUMENT: EXIT.ERROR,
  // client
  NETWORK_ERROR: EXIT.SERVICE,
  TIMEOUT: EXIT.SERVICE,
  BAD_RESPONSE: EXIT.SERVICE,
  PAYLOAD_TOO_LARGE: EXIT.SERVICE,
  UPLOAD_OUTCOME_UNKNOWN: EXIT.SERVICE,
  PROVIDER_TEMPLATE_MISMATCH: EXIT.SERVICE,
  CONFIG_INVALID: EXIT.CONFIG,
  // A refused refresh (revoked app or token): a credential problem, fixed by logging in again.
  OAUTH_REFUSED: EXIT.CONFIG,
  ABORTED: EXIT.ABORTED,
  // runner
  CONFIG_NOT_FOUND: EXIT.CONFIG,
  CONNECTOR_NOT_FOUND: EXIT.CONFIG,
  PLUGIN_INVALID: EXIT.CONFIG,
  PLUGIN_API_VERSION: EXIT.CONFIG,
  SECRET_MISSING: EXIT.CONFIG,
  CREDENTIALS_MISSING: EXIT.CONFIG,
  KEYCHAIN_UNAVAILABLE: EXIT.CONFIG,
  OAUTH_LOGIN_FAILED: EXIT.CONFIG,
  TARGET_MISSING: EXIT.CONFIG,
  STATE_LOCKED: EXIT.STATE,
  STATE_CORRUPT: EXIT.STATE,
  STATE_CONFLICT: EXIT.STATE,
  CHECK_FAILED: EXIT.CONNECTOR,
  EXTRACT_FAILED: EXIT.CONNECTOR,
  STATE_VALUE_INVALID: EXIT.CONNECTOR,
  SOURCE_HTTP_ERROR: EXIT.CONNECTOR,
  SOURCE_NETWORK_ERROR: EXIT.CONNECTOR,
  // A source refusing the connector's secrets fails the connector (its check or extract wraps it).
  SOURCE_CREDENTIALS_REFUSED: EXIT.CONNECTOR,
  // The run asked for a request the replayed recording does not have: the connector cannot go on.
  REPLAY_UNMATCHED: EXIT.CONNECTOR,
  ACCEPTANCE_FAILED: EXIT.ACCEPTANCE,
  // The file of --replay cannot be used.
  HAR_INVALID: EXIT.USAGE,
  DELETION_GUARD: EXIT.GUARD,
  PUSH_FAILED: EXIT.SERVICE,
  TARGET_REFUSED: EXIT.CONFIG,
  PAYLOAD_REFUSED: EXIT.VALIDATION,
  CREDENTIALS_REFUSED: EXIT.CONFIG,
  // runner: daemon
  DAEMON_LISTEN_FAILED: EXIT.CONFIG,
  DAEMON_STOPPING: EXIT.ERROR,
  UNEXPECTED: EXIT.ERROR,
  // fleet
  QUEUE_URL_INVALID: EXIT.USAGE,
  REDIS_UNAVAILABLE: EXIT.SERVICE,
  PATTERN_INVALID: EXIT.USAGE,
  JOB_NOT_FOUND: EXIT.NOT_FOUND,
  JOB_STATE: EXIT.USAGE,
  // runner: plugin scaffold
  PLUGIN_NAME_INVALID: EXIT.USAGE,
  TARGET_NOT_EMPTY: EXIT.USAGE,
  TEMPLATE_MISSING: EXIT.CONFIG,
  TEMPLATE_INVALID: EXIT.ERROR,
  // cli
  USAGE: EXIT.USAGE,
  FILE_UNREADABLE: EXIT.USAGE,
  ICON_INVALID: EXIT.USAGE,
  PROVIDER_NOT_FOUND: EXIT.NOT_FOUND,
  DATA_SOURCE_NOT_FOUND: EXIT.NOT_FOUND,
  EMAIL_TEMPLATE_NOT_FOUND: EXIT.NOT_FOUND,
  CREDENTIALS_INVALID: EXIT.CONFIG,
  WARNINGS: EXIT.WARNINGS,
  MANIFEST_INVALID: EXIT.VALIDATION,
} as const satisfies Record<OaaErrorCode, ExitCode>;

/** Whether `code` is one of oaakit's: a plugin's own codes, or a newer version's, are not. */
function isKnownCode(code: string): code is OaaErrorCode {
  return Object.hasOwn(BY_CODE, code);
}

/** The HTTP status of an error from the service (a `ServiceError` of `@oaakit/client`), if it is one. */
function serviceStatus(error: OaaError<string>): number | undefined {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * A service error by its status: 400 refused what the user gave (the payload, a name typed on the
 * command line), 401 and 403 refused the key; anything else is a failure of the service or the way
 * to it. Runs map their own refusals (`TARGET_REFUSED`, ...) by code, since only they know whether
 * a refused name came from the config file.
 */
function serviceExit(status: number): ExitCode {
  if (status === 400) return EXIT.VALIDATION;
  if (status === 401 || status === 403) return EXIT.CONFIG;
  return EXIT.SERVICE;
}

/** Whether an error is oclif's own (a flag or argument problem found while parsing). */
function isOclifError(error: unknown): boolean {
  return error instanceof Error && typeof (error as { oclif?: unknown }).oclif === 'object';
}

/**
 * The exit code of an error: a service error by its HTTP status (its `code` is the service's own),
 * any other `OaaError` by its `code`.
 */
export function exitCodeOf(error: unknown): ExitCode {
  if (isOaaError(error)) {
    const status = serviceStatus(error);
    if (status !== undefined) return serviceExit(status);
    return isKnownCode(error.code) ? BY_CODE[error.code] : EXIT.ERROR;
  }
  if (isOclifError(error)) return EXIT.USAGE;
  return EXIT.ERROR;
}
