/**
 * The stable `code`s of the `OaaError`s only the daemon throws (its runs fail with the runner's own
 * codes, see `RUNNER_ERROR_CODES`).
 */
export const DAEMON_ERROR_CODES = {
  /** The status server could not bind its host and port. */
  LISTEN_FAILED: 'DAEMON_LISTEN_FAILED',
  /** A reload was asked for while the daemon shuts down. */
  STOPPING: 'DAEMON_STOPPING',
} as const;

/** One of {@link DAEMON_ERROR_CODES}. */
export type DaemonErrorCode = (typeof DAEMON_ERROR_CODES)[keyof typeof DAEMON_ERROR_CODES];
