/**
 * The stable `code`s of the `OaaError`s only the daemon throws (its runs fail with the runner's own
 * codes, see `RUNNER_ERROR_CODES`).
 */
export const DAEMON_ERROR_CODES = {
  /** The status server could not bind its host and port. */
  LISTEN_FAILED: 'DAEMON_LISTEN_FAILED',
  /** A reload was asked for while the daemon shuts down. */
  STOPPING: 'DAEMON_STOPPING',
  /** A run threw something that is not an `OaaError` (a bug of a plugin or of oaakit). */
  UNEXPECTED: 'UNEXPECTED',
} as const;

/** One of {@link DAEMON_ERROR_CODES}. */
export type DaemonErrorCode = (typeof DAEMON_ERROR_CODES)[keyof typeof DAEMON_ERROR_CODES];

declare module '@oaakit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments core's registry
  interface OaaErrorCodes extends Record<DaemonErrorCode, true> {}
}
