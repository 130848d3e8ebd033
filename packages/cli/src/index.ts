// @oaakit/cli: the `oaa` command. Commands load from dist/commands; this entry is what an operator's
// script needs to read the command's results: its exit codes and the JSON of `oaa run` and `oaa push`.

export { EXIT, exitCodeOf, type ExitCode } from './exit-codes.js';
export type { CliErrorCode } from './error-codes.js';
export type { RunOutput } from './run/run-outcome.js';
export type { PushOutput } from './commands/push.js';
