/**
 * The stable `code`s of the `OaaError`s the plugin scaffold throws. The CLI maps them to exit codes;
 * they never change meaning once released.
 */
export const SCAFFOLD_ERROR_CODES = {
  /** The name is not a valid name for a new npm package. */
  PLUGIN_NAME_INVALID: 'PLUGIN_NAME_INVALID',
  /** The template asked for is not `application`, `identity_provider` or `hris`. */
  TEMPLATE_UNKNOWN: 'TEMPLATE_UNKNOWN',
  /** The plugin template's files were not found (a broken installation). */
  TEMPLATE_MISSING: 'TEMPLATE_MISSING',
  /** A template file has a placeholder the generator does not know (a mistake in the template). */
  TEMPLATE_INVALID: 'TEMPLATE_INVALID',
  /** The target directory exists and is not empty, or is not a directory. */
  TARGET_NOT_EMPTY: 'TARGET_NOT_EMPTY',
} as const;

/** One of {@link SCAFFOLD_ERROR_CODES}. */
export type ScaffoldErrorCode = (typeof SCAFFOLD_ERROR_CODES)[keyof typeof SCAFFOLD_ERROR_CODES];

declare module '@oaakit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments core's registry
  interface OaaErrorCodes extends Record<ScaffoldErrorCode, true> {}
}
