// @oaakit/cli: the `oaa` command. Commands load from dist/commands; these are the shared pieces.

export { EXIT, exitCodeOf, type ExitCode } from './exit-codes.js';
export { BaseCommand } from './base-command.js';
export { ServiceCommand, DEFAULT_STATE_DIR, targetFlags } from './service-command.js';
export { renderTable, renderFields, type Column } from './output/table.js';
