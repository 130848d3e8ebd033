/**
 * The stable `code`s of the `OaaError`s only the fleet throws (its runs fail with the runner's own
 * codes). The CLI maps them to exit codes.
 */
export const FLEET_ERROR_CODES = {
  /** The queue URL is not a redis:// or rediss:// URL, or names no usable database. */
  QUEUE_URL_INVALID: 'QUEUE_URL_INVALID',
  /** Redis did not answer (down, unreachable, refused the password or TLS). */
  REDIS_UNAVAILABLE: 'REDIS_UNAVAILABLE',
  /** `--connectors` is not a list of globs of connector ids. */
  PATTERN_INVALID: 'PATTERN_INVALID',
  /** No job with the id asked for (it finished and was removed, or never existed). */
  JOB_NOT_FOUND: 'JOB_NOT_FOUND',
  /** The job is not in a state that allows the action (e.g. retrying a job that has not failed). */
  JOB_STATE: 'JOB_STATE',
} as const;

/** One of {@link FLEET_ERROR_CODES}. */
export type FleetErrorCode = (typeof FLEET_ERROR_CODES)[keyof typeof FLEET_ERROR_CODES];

declare module '@oaakit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments core's registry
  interface OaaErrorCodes extends Record<FleetErrorCode, true> {}
}
