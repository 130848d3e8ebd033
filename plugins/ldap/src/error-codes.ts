/**
 * The codes of the errors the directory connector throws. They are the plugin's own: the runner
 * wraps them (`CHECK_FAILED`, `EXTRACT_FAILED`) and keeps them as `details.causeCode`.
 */
export type LdapErrorCode =
  /** The server refused the bind: wrong password, unknown DN, or an account that may not sign in. */
  | 'SOURCE_CREDENTIALS_REFUSED'
  /** The server could not be reached, or did not answer within `timeoutMs`. */
  | 'SOURCE_UNREACHABLE'
  /** The server requires TLS (or signing) for a simple bind, and the connection has none. */
  | 'TLS_REQUIRED'
  /** The server's certificate is not verified by `caFile` (or the system CAs), or names another host. */
  | 'TLS_CERTIFICATE_REJECTED'
  /** StartTLS was asked for, and the server does not offer it. */
  | 'STARTTLS_UNAVAILABLE'
  /** `caFile` cannot be read. */
  | 'CA_FILE_UNREADABLE'
  /** The `bindPassword` secret is empty: a simple bind without a password is anonymous. */
  | 'BIND_PASSWORD_EMPTY'
  /** `baseDn` is not set and the rootDSE names no naming context, or `baseDn` does not exist. */
  | 'BASE_DN_UNKNOWN'
  /** The server does not offer the simple paged results control (RFC 2696). */
  | 'PAGING_UNSUPPORTED'
  /** A server limit for the bind account (size, time, admin limit) stopped a read before its end. */
  | 'SERVER_LIMIT_EXCEEDED'
  /** The bind account may not read what the connector reads. */
  | 'ACCESS_DENIED'
  /** A search failed for another reason the server gave. */
  | 'SEARCH_FAILED'
  /** An entry the filters select lacks an attribute the mapping needs (its id or login). */
  | 'ENTRY_INVALID'
  /** The configured (or detected) flavor is not built into this version of the connector. */
  | 'FLAVOR_UNAVAILABLE'
  /** A custom property would overwrite a property the connector sets itself. */
  | 'CUSTOM_PROPERTY_CLASH';
