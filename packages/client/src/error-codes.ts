/**
 * The codes `@oaakit/client` throws, added to core's registry of codes. A `ServiceError` is not among
 * them: its code is the service's own (`InvalidArgument`, ...), and callers read its `status`.
 */

/** The codes of the client's own errors. */
export type ClientErrorCode =
  /** The request never got an answer (connection refused or reset, DNS, TLS). */
  | 'NETWORK_ERROR'
  /** No answer within the timeout. */
  | 'TIMEOUT'
  /** The caller's AbortSignal fired. */
  | 'ABORTED'
  /** An answer the client cannot use (not JSON, wrong shape, a page that does not advance). */
  | 'BAD_RESPONSE'
  /** A payload larger than the service takes even in parts. */
  | 'PAYLOAD_TOO_LARGE'
  /** A multipart upload whose last part got no answer: the service may or may not have the payload. */
  | 'UPLOAD_OUTCOME_UNKNOWN'
  /** The provider exists with another template than the payload's. */
  | 'PROVIDER_TEMPLATE_MISMATCH'
  /** A client option (URL, API key, body limit) that cannot be used. */
  | 'CONFIG_INVALID'
  /** The OAuth2 token endpoint refused a grant (an expired or revoked refresh token, a revoked app). */
  | 'OAUTH_REFUSED';

declare module '@oaakit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments core's registry
  interface OaaErrorCodes extends Record<ClientErrorCode, true> {}
}
