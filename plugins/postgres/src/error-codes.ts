/**
 * The codes of the errors the PostgreSQL connector throws. They are the plugin's own: the runner
 * wraps them (`CHECK_FAILED`, `EXTRACT_FAILED`) and keeps them as `details.causeCode`.
 */
export type PostgresErrorCode =
  /** The server refused the role's password (or the role may not log in). */
  | 'SOURCE_CREDENTIALS_REFUSED'
  /** The server could not be reached, or TLS failed. */
  | 'SOURCE_UNREACHABLE'
  /** A database to read is missing, or the role lacks CONNECT on it. */
  | 'DATABASE_NOT_READABLE'
  /** The `password` secret is not set. */
  | 'SECRET_MISSING';
