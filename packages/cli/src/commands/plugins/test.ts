import { relative, resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { OaaError, isOaaError } from '@oaakit/core';
import type {
  AcceptanceCheckName,
  AcceptanceCheckResult,
  AcceptanceReport,
  LoadedConfig,
} from '@oaakit/runner';
import { BaseCommand } from '../../base-command.js';
import { exitCodeOf } from '../../exit-codes.js';

/** A check's outcome as the progress lines and the table show it. */
function verdict(check: AcceptanceCheckResult): string {
  if (check.skipped) return 'SKIP';
  return check.ok ? 'PASS' : 'FAIL';
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** `dir` as the user would type it from here. */
function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') ? dir : rel;
}

/** `oaa plugins test`: the connector acceptance kit on a plugin, with a connector entry's config. */
export default class PluginsTest extends BaseCommand {
  static override summary = 'Run the connector acceptance checks on a plugin.';
  static override description = `Runs the plugin's connector as oaa run --dry-run runs it (the plugin loaded, its config and secrets from a connector entry of the config file, nothing pushed) through ten checks, and prints one row per check: PASS, FAIL, or SKIP when the check does not apply, with the reason and the time it took. The checks:
definition: the connector is what oaa loads; every config field and secret is described
check: check() passes; a wrong value of each secret is refused as a credential error
extract: the payload is valid (its counts and validation warnings are listed)
idempotent: two extracts of the unchanged source give the same payload
streams-once: each streamed collection is read once
cancels: an abort stops the run promptly, with the cancelled outcome
no-secret-leaks: no secret value in the payload, the log lines or the errors
source-faults: a 429, a 500 and a dropped connection are retried; a lasting 500 fails the run
incremental: with the state a run saved, the next run reads less; a failed run keeps the state
resources: the memory a run takes stays under the plugin's bound
The bound is declared in the plugin's package.json, "oaakit": { "acceptance": { "peakRssMb": N } }: the most the process's RSS may grow during one extract and read of the payload. Without it, resources is skipped.

DIR is the plugin's directory (default: this one). The connector entry is the one whose plugin is DIR; --connector picks one when several are, and without DIR checks the plugin of that entry wherever it is installed (a REST manifest's entry names @oaakit/plugin-rest). --replay answers the source from a recording (oaa run --record, or --record here); the kit then refuses a wrong secret itself, since a recording cannot. --record records the source requests of every check (those with a wrong secret excepted), scrubbed as oaa run --record scrubs, so that --replay of the file passes the same checks. Each check's result is shown on stderr as it finishes (not with --json).

Exit codes: 0 every check passed or was skipped, 10 a check failed, 5 a config, plugin or secret problem, 64 bad usage (a name in --only that is not a check, a --replay file that cannot be used).`;

  static override examples = [
    {
      description: 'Every check, on the plugin in this directory',
      command: '<%= config.bin %> <%= command.id %> --config oaa.config.yaml',
    },
    {
      description: 'A plugin of a workspace, the connector entry named',
      command:
        '<%= config.bin %> <%= command.id %> plugins/scim-app --config dev.config.yaml --connector wiki',
    },
    {
      description: 'Two checks only',
      command: '<%= config.bin %> <%= command.id %> --config oaa.config.yaml --only extract idempotent',
    },
    {
      description: 'Record the source of every check (once, with the source at hand)',
      command: '<%= config.bin %> <%= command.id %> --config oaa.config.yaml --record fixtures/source.har',
    },
    {
      description: 'Then check against the recording (CI: no source needed)',
      command: '<%= config.bin %> <%= command.id %> --config oaa.config.yaml --replay fixtures/source.har',
    },
    {
      description: 'The failed checks, from the JSON report',
      command:
        "<%= config.bin %> <%= command.id %> --config oaa.config.yaml --json | jq '.checks[] | select(.ok | not)'",
    },
  ];

  static override args = {
    dir: Args.string({
      description:
        "the plugin's directory (its package.json); default this one, or with --connector the plugin of that entry",
    }),
  };

  static override flags = {
    config: Flags.string({
      char: 'c',
      description:
        'config file holding a connector entry of the plugin (default: oaa.config.yaml, .yml or .json in this directory)',
    }),
    connector: Flags.string({
      description: 'the connector entry to use, when several use the plugin',
    }),
    only: Flags.string({
      description:
        'run only these checks (space or comma separated): definition, check, extract, idempotent, streams-once, cancels, no-secret-leaks, source-faults, incremental, resources',
      multiple: true,
      delimiter: ',',
    }),
    replay: Flags.string({
      description:
        "answer the connector's source requests from this HAR file (--record here or oaa run --record wrote it) instead of the source",
      exclusive: ['record'],
    }),
    record: Flags.string({
      description:
        "record the source requests of every check (those with a wrong secret excepted) and the answers in this HAR file, written when the checks have run; credential headers, the connector's secrets and the entry's record.scrubFields are scrubbed",
      exclusive: ['replay'],
    }),
  };

  /** The report of checks that failed, printed as the `--json` output instead of an error. */
  private failedReport: AcceptanceReport | undefined;

  async run(): Promise<AcceptanceReport> {
    const { args, flags } = await this.parse(PluginsTest);
    // Loaded here, not at the top: oclif imports every command module at start-up.
    const { ACCEPTANCE_CHECKS, acceptConfiguredConnector, formatAcceptanceReport, loadConfig } =
      await import('@oaakit/runner');
    const only = flags.only?.map((name) => name.trim()).filter((name) => name !== '');
    const unknown = (only ?? []).filter((name) => !(ACCEPTANCE_CHECKS as readonly string[]).includes(name));
    if (unknown.length > 0)
      throw new OaaError(
        `--only: ${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length === 1 ? 'is not a check' : 'are not checks'}; the checks are ${ACCEPTANCE_CHECKS.join(', ')}`,
        { code: 'USAGE', details: { unknown } },
      );
    const loaded = await loadConfig(flags.config === undefined ? {} : { path: flags.config });
    // With --connector and no DIR, the entry's plugin is checked, wherever it is installed (a
    // manifest's entry names @oaakit/plugin-rest).
    const pluginDir =
      args.dir === undefined && flags.connector !== undefined ? undefined : resolve(args.dir ?? '.');
    const connectorId = flags.connector ?? (await this.connectorOf(loaded, pluginDir!));
    const json = this.jsonEnabled();
    if (!json)
      this.note(
        `Acceptance checks of connector ${connectorId}${pluginDir === undefined ? '' : ` (plugin ${shown(pluginDir)})`}:`,
      );
    const { report } = await acceptConfiguredConnector({
      loaded,
      connectorId,
      ...(pluginDir === undefined ? {} : { pluginDir }),
      ...(only === undefined ? {} : { only: only as AcceptanceCheckName[] }),
      ...(flags.record === undefined ? {} : { record: flags.record }),
      ...(flags.replay === undefined ? {} : { replay: flags.replay }),
      ...(json
        ? {}
        : {
            onCheck: (check: AcceptanceCheckResult) =>
              this.note(`  ${check.name}: ${verdict(check)} (${duration(check.ms)})`),
          }),
    });
    this.log(formatAcceptanceReport(report).trimEnd());
    if (flags.record !== undefined && !json)
      this.note(`Recorded the source requests of the checks in ${flags.record}.`);
    const failed = report.checks.filter((c) => !c.ok).map((c) => c.name);
    if (failed.length > 0) {
      this.failedReport = report;
      throw new OaaError(
        `${failed.length} of ${report.checks.length} acceptance checks failed: ${failed.join(', ')}`,
        {
          code: 'ACCEPTANCE_FAILED',
          details: { connectorId, failed },
          hints: ['the table says why each failed', `run one again alone with --only ${failed[0] ?? ''}`],
        },
      );
    }
    return report;
  }

  /** The one connector entry of the config whose plugin is `pluginDir`. */
  private async connectorOf(loaded: LoadedConfig, pluginDir: string): Promise<string> {
    const { connectorsOfPlugin } = await import('@oaakit/runner');
    const ids = connectorsOfPlugin(loaded, pluginDir);
    if (ids.length === 1) return ids[0]!;
    const configured = loaded.config.connectors.map((c) => `${c.id} (plugin ${c.plugin})`);
    if (ids.length === 0)
      throw new OaaError(`no connector of ${loaded.path} runs the plugin in ${shown(pluginDir)}`, {
        code: 'CONNECTOR_NOT_FOUND',
        details: { pluginDir, available: loaded.config.connectors.map((c) => c.id) },
        hints: [
          configured.length > 0
            ? `configured connectors: ${configured.join(', ')}`
            : 'add a connector entry with the plugin to connectors in the config file',
          'a plugin path in the config file is relative to the config file',
        ],
      });
    throw new OaaError(
      `${ids.length} connectors of ${loaded.path} run the plugin in ${shown(pluginDir)}: ${ids.join(', ')}`,
      { code: 'USAGE', details: { connectors: ids }, hints: ['pick one with --connector ID'] },
    );
  }

  /** With `--json`, a run whose checks failed prints the report (as when they pass), not an error. */
  override async catch(error: Error & { exitCode?: number; code?: string }): Promise<void> {
    if (
      this.failedReport !== undefined &&
      this.jsonEnabled() &&
      isOaaError(error) &&
      error.code === 'ACCEPTANCE_FAILED'
    ) {
      process.exitCode = exitCodeOf(error);
      this.logJson(this.failedReport);
      return;
    }
    await super.catch(error);
  }
}
