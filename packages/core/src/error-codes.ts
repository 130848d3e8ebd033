/**
 * The error codes of oaakit, checked at compile time. `OaaErrorCodes` is a registry: core lists its
 * own codes here, and every package that throws more adds them by augmenting it, next to its own
 * list, so that `new OaaError(message, { code })` refuses a code nobody declared and the CLI's map
 * from code to exit code can require every code:
 *
 * @example
 * // packages/<pkg>/src/error-codes.ts
 * export type PkgErrorCode = 'SOMETHING_FAILED';
 * declare module '@oaakit/core' {
 *   interface OaaErrorCodes extends Record<PkgErrorCode, true> {}
 * }
 *
 * Plugins keep their codes to themselves (`new OaaError<MyCode>(...)`): the runner wraps what a
 * connector throws (`EXTRACT_FAILED`, `CHECK_FAILED`), so their codes never decide an exit code.
 */

/** The codes `@oaakit/core` throws. */
export type CoreErrorCode =
  /** A payload failed local validation (`ValidationError`). */
  | 'VALIDATION_FAILED'
  /** A payload name other than `application`, `identity_provider` or `hris`. */
  | 'TEMPLATE_UNKNOWN'
  /** The hris template takes no incremental payloads. */
  | 'INCREMENTAL_NOT_SUPPORTED'
  /** A builder was given two entities with one key. */
  | 'DUPLICATE_ENTITY'
  /** A builder reference names an entity that was never added. */
  | 'UNKNOWN_REFERENCE'
  /** An entity stream was read twice. */
  | 'STREAM_CONSUMED'
  /** A value that JSON cannot hold (a function, a cycle, a bigint, ...). */
  | 'PAYLOAD_NOT_SERIALIZABLE'
  /** A connector object that breaks the connector contract. */
  | 'CONNECTOR_INVALID'
  /** A function was called with arguments it does not take (a programming error). */
  | 'INVALID_ARGUMENT';

/**
 * Every error code of oaakit: core's, and those the other packages add by augmenting this interface.
 * Only the keys matter.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a registry packages augment
export interface OaaErrorCodes extends Record<CoreErrorCode, true> {}

/** One code of {@link OaaErrorCodes}: in a program, every code of the packages it imports. */
export type OaaErrorCode = keyof OaaErrorCodes;
