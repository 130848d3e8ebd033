/**
 * The codes of the errors the REST connector throws. They are the plugin's own, not oaakit's
 * registered ones: the runner wraps them (`CONFIG_INVALID`, `EXTRACT_FAILED`, `CHECK_FAILED`) and
 * keeps them as `details.causeCode`.
 */
export const REST_ERROR_CODES = {
  /** The config's `manifest` names no shipped manifest and no readable file. */
  MANIFEST_NOT_FOUND: 'MANIFEST_NOT_FOUND',
  /** The manifest is not valid: `details.problems` lists each with its path, line and column. */
  MANIFEST_INVALID: 'MANIFEST_INVALID',
  /** An expression of the manifest failed on what the source answered (path and line in the message). */
  REST_MAPPING_FAILED: 'REST_MAPPING_FAILED',
  /** The source answered something that is not JSON, or records that are not objects. */
  REST_BAD_RESPONSE: 'REST_BAD_RESPONSE',
  /** Paging does not advance: the same page or cursor came back, or max_pages was passed. */
  REST_PAGING_BROKEN: 'REST_PAGING_BROKEN',
  /** The OAuth2 token endpoint refused the client credentials or answered without a token. */
  REST_TOKEN_FAILED: 'REST_TOKEN_FAILED',
  /** Permissions whose names the manifest's permission_types table lacks; `details.unmapped` lists them all. */
  PERMISSIONS_UNMAPPED: 'PERMISSIONS_UNMAPPED',
  /** Resources whose parents nest in a cycle. */
  RESOURCE_TREE_INVALID: 'RESOURCE_TREE_INVALID',
} as const;

/** One of {@link REST_ERROR_CODES}. */
export type RestErrorCode = (typeof REST_ERROR_CODES)[keyof typeof REST_ERROR_CODES];
