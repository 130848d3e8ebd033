/** The codes only the CLI throws, added to core's registry of codes (see `OaaErrorCodes`). */

/** The codes of the CLI's own errors. */
export type CliErrorCode =
  /** Wrong or conflicting flags or arguments that oclif's parser cannot see. */
  | 'USAGE'
  /** A file named on the command line cannot be read. */
  | 'FILE_UNREADABLE'
  /** An icon file that is not a PNG or SVG the service takes. */
  | 'ICON_INVALID'
  /** A provider named on the command line does not exist. */
  | 'PROVIDER_NOT_FOUND'
  /** A data source named on the command line does not exist. */
  | 'DATA_SOURCE_NOT_FOUND'
  /** An email notification template named on the command line (id or usage) does not exist. */
  | 'EMAIL_TEMPLATE_NOT_FOUND'
  /** `oaa auth login` was given a key the service refused. */
  | 'CREDENTIALS_INVALID'
  /** The run succeeded with warnings and `--fail-on-warnings` was given. */
  | 'WARNINGS'
  /** `oaa manifest check` found problems in a REST connector manifest (`details.problems`). */
  | 'MANIFEST_INVALID';

declare module '@oaakit/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augments core's registry
  interface OaaErrorCodes extends Record<CliErrorCode, true> {}
}
