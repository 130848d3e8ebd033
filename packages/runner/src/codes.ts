/**
 * The stable `code`s of the `OaaError`s the runner throws. The CLI maps them to exit codes; they
 * never change meaning once released.
 */
export const RUNNER_ERROR_CODES = {
  /** No config file where one was looked for. */
  CONFIG_NOT_FOUND: 'CONFIG_NOT_FOUND',
  /** The config file is not valid YAML/JSON or breaks the schema; `details.violations` lists each key. */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** No connector with the id asked for in the config. */
  CONNECTOR_NOT_FOUND: 'CONNECTOR_NOT_FOUND',
  /** A plugin could not be found, imported, or its export is not a connector. */
  PLUGIN_INVALID: 'PLUGIN_INVALID',
  /** A plugin was written for another connector apiVersion. */
  PLUGIN_API_VERSION: 'PLUGIN_API_VERSION',
  /** A declared secret has no reference, or its reference resolves to nothing. */
  SECRET_MISSING: 'SECRET_MISSING',
  /** A target URL is known but no API key was found for it. */
  CREDENTIALS_MISSING: 'CREDENTIALS_MISSING',
  /** The OS keychain (Secret Service, Keychain, Credential Manager) could not be used. */
  KEYCHAIN_UNAVAILABLE: 'KEYCHAIN_UNAVAILABLE',
  /** An OAuth2 login failed: consent refused, a state mismatch, a refused code, or no answer in time. */
  OAUTH_LOGIN_FAILED: 'OAUTH_LOGIN_FAILED',
  /** Another run holds the lock of this data source's state. */
  STATE_LOCKED: 'STATE_LOCKED',
  /** A state file could not be read back (hand-edited or from an incompatible version). */
  STATE_CORRUPT: 'STATE_CORRUPT',
  /** Another run committed this data source's state after this run read it (a run that outlived its lock). */
  STATE_CONFLICT: 'STATE_CONFLICT',
  /** The connector's `check` failed. */
  CHECK_FAILED: 'CHECK_FAILED',
  /** A value a connector gave `ctx.state.set` that is not JSON. */
  STATE_VALUE_INVALID: 'STATE_VALUE_INVALID',
  /** A connector's `ctx.http` call was answered with an error status. */
  SOURCE_HTTP_ERROR: 'SOURCE_HTTP_ERROR',
  /** A connector's `ctx.http` call got no answer. */
  SOURCE_NETWORK_ERROR: 'SOURCE_NETWORK_ERROR',
  /**
   * The connector's source refused its credentials: `ctx.http` was answered 401 or 403
   * (`details.status`). Connectors of other sources (databases, directories) throw it too when the
   * source refuses what they sign in with. Not retryable; the message never holds the credential.
   */
  SOURCE_CREDENTIALS_REFUSED: 'SOURCE_CREDENTIALS_REFUSED',
  /**
   * A replayed run (`oaa run --replay`) made a source request its HAR file has no answer for;
   * `details` names the method, the URL (scrubbed), the file and the nearest recorded request.
   */
  REPLAY_UNMATCHED: 'REPLAY_UNMATCHED',
  /** A HAR file to replay cannot be read, is not JSON, or is not HAR 1.2 (`details.violations`). */
  HAR_INVALID: 'HAR_INVALID',
  /**
   * A connector failed one or more checks of the acceptance kit (`oaa plugins test`);
   * `details.failed` names them.
   */
  ACCEPTANCE_FAILED: 'ACCEPTANCE_FAILED',
  /** The connector threw while extracting. */
  EXTRACT_FAILED: 'EXTRACT_FAILED',
  /** The push would remove more identities than the configured share allows. */
  DELETION_GUARD: 'DELETION_GUARD',
  /**
   * Provider, data source or push calls failed (the service's error is the `cause`): the network, a
   * timeout, or an answer other than the refusals below.
   */
  PUSH_FAILED: 'PUSH_FAILED',
  /**
   * The service refused to create the provider or data source of the run (400: a name it does not
   * allow); `details.violations` lists the service's field violations.
   */
  TARGET_REFUSED: 'TARGET_REFUSED',
  /** The service refused the pushed payload as invalid (400); `details.violations` lists why. */
  PAYLOAD_REFUSED: 'PAYLOAD_REFUSED',
  /** The service refused the API key (401) or its role does not allow the call (403). */
  CREDENTIALS_REFUSED: 'CREDENTIALS_REFUSED',
  /** The run was cancelled through its AbortSignal. */
  ABORTED: 'ABORTED',
  /** A real run was asked for without a client (no target). */
  TARGET_MISSING: 'TARGET_MISSING',
} as const;

/** One of {@link RUNNER_ERROR_CODES}. */
export type RunnerErrorCode = (typeof RUNNER_ERROR_CODES)[keyof typeof RUNNER_ERROR_CODES];

declare module '@oaakit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments core's registry
  interface OaaErrorCodes extends Record<RunnerErrorCode, true> {}
}
