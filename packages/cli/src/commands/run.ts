import { Flags } from '@oclif/core';
import type { Client } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import type { CheckResult, ConnectorOutcome, LoadedConfig, RunResult } from '@oaakit/runner';
import { runFailure, runOutput, writeReport } from '../run/run-outcome.js';
import type { RunOutput } from '../run/run-outcome.js';
import { NO_PROGRESS, createProgressRenderer } from '../run/progress-renderer.js';
import { connectorWarningLines, diffLines, summaryTable } from '../run/run-summary.js';
import { ServiceCommand } from '../service-command.js';

/** Warnings listed per connector for a human; the rest are counted. */
const MAX_WARNING_LINES = 50;

/** `--record FILE` or `--replay FILE`, as run options. */
type SourceFlags = { record: string } | { replay: string } | Record<never, never>;

/**
 * The run options of `--record` and `--replay`: not both, and for one connector (a file holds the
 * source of one connector).
 */
function sourceFlags(
  flags: { record?: string | undefined; replay?: string | undefined },
  connectorIds: readonly string[],
): SourceFlags {
  const { record, replay } = flags;
  if (record !== undefined && replay !== undefined) {
    throw new OaaError('--record and --replay cannot be given together', {
      code: 'USAGE',
      hints: ['record the source with --record FILE, then run again from the recording with --replay FILE'],
    });
  }
  const flag = record !== undefined ? '--record' : replay !== undefined ? '--replay' : undefined;
  if (flag !== undefined && connectorIds.length !== 1) {
    throw new OaaError(`${flag} needs exactly one connector`, {
      code: 'USAGE',
      hints: ['pick one with --connector ID'],
    });
  }
  if (record !== undefined) return { record };
  if (replay !== undefined) return { replay };
  return {};
}

/** `oaa run`: runs the connectors of a config file once. */
export default class Run extends ServiceCommand {
  static override summary = 'Run the connectors of a config file once.';
  static override description = `Each connector extracts, validates (errors stop it and list every violation), is diffed against its last push, checked by the deletion guard, skipped when nothing changed, and pushed. The state is saved only after a successful push. Progress goes to stderr on a terminal (or with --progress); a summary table follows. --dry-run stops before the push and shows what would change. Without a target (flags, OAA_URL, the config's target, oaa auth login), the embedded emulator is used.

Exit codes: 2 the payload failed validation or the service refused it, 3 the deletion guard refused the push, 4 the service failed or could not be reached, 5 a config problem (also a provider or data-source name the service refused: each field violation is listed) or a refused API key (401) or role (403), 6 warnings with --fail-on-warnings, 8 a connector failed while extracting, 9 the state is locked.`;

  static override examples = [
    {
      description: 'Run every connector of ./oaa.config.yaml',
      command: '<%= config.bin %> <%= command.id %>',
    },
    {
      description: 'What would change, without pushing',
      command: '<%= config.bin %> <%= command.id %> --connector hr --dry-run',
    },
    {
      description:
        "Record the connector's source requests and answers (secrets scrubbed), then run again from the recording",
      command:
        '<%= config.bin %> <%= command.id %> --connector hr --record hr-source.har\n<%= config.bin %> <%= command.id %> --connector hr --replay hr-source.har --dry-run',
    },
    {
      description: 'CI: fail on warnings, keep a report',
      command:
        '<%= config.bin %> <%= command.id %> --config oaa.config.yaml --fail-on-warnings --report run.json',
    },
  ];

  static override flags = {
    config: Flags.string({
      char: 'c',
      description: 'config file (default: oaa.config.yaml, .yml or .json in this directory)',
    }),
    connector: Flags.string({ description: 'run only this connector id (repeatable)', multiple: true }),
    'dry-run': Flags.boolean({
      description: 'stop before the push: show the diff, push nothing, change no state',
    }),
    force: Flags.boolean({ description: 'push even when the deletion guard would refuse' }),
    'save-payload': Flags.string({
      description: 'also write the payload to this file (.gz for gzip); one connector only',
    }),
    report: Flags.string({ description: 'write the results as JSON to this file' }),
    'fail-on-warnings': Flags.boolean({ description: 'exit with a non-zero code when there are warnings' }),
    progress: Flags.boolean({
      description: 'show progress on stderr (default: when stderr is a terminal)',
      allowNo: true,
    }),
    'parse-timeout': Flags.integer({
      description:
        'seconds to wait after each push for the service to parse it (its status and OAA_PUSH event); 0 does not wait',
      default: 30,
      min: 0,
      max: 3600,
    }),
    record: Flags.string({
      description:
        "record every request the connector makes to its source, and the answers, in this HAR file (written when the run ends, whether it succeeded or not; credential headers, the connector's secrets and the config entry's record.scrubFields are scrubbed); one connector only",
    }),
    replay: Flags.string({
      description:
        "answer the connector's source requests from this HAR file (one --record wrote) instead of the source; a request it has no answer for fails the connector; one connector only",
    }),
    check: Flags.boolean({
      description:
        'only check each connector: its config, its secrets and its own reachability check; push nothing',
      exclusive: ['dry-run', 'force', 'save-payload'],
    }),
  };

  async run(): Promise<RunOutput | { checks: CheckResult[] }> {
    const { flags } = await this.parse(Run);
    // Loaded here, not at the top: oclif imports every command module at start-up.
    const { loadConfig, runConfiguredConnectors } = await import('@oaakit/runner');
    const { createRunLogger } = await import('../run/run-logger.js');
    const loaded = await loadConfig(flags.config === undefined ? {} : { path: flags.config });
    const connectorIds = flags.connector ?? loaded.config.connectors.map((c) => c.id);
    const source = sourceFlags(flags, connectorIds);
    if (flags.check) return { checks: await this.check(loaded, connectorIds, source) };
    if (flags['save-payload'] !== undefined && connectorIds.length !== 1) {
      throw new OaaError('--save-payload needs exactly one connector', {
        code: 'USAGE',
        hints: ['pick one with --connector ID'],
      });
    }
    const dryRun = flags['dry-run'] ?? false;
    let client: Client | undefined;
    if (!dryRun) client = (await this.connect(flags, loaded.config.target)).client;
    const showProgress = flags.progress ?? process.stderr.isTTY;
    const progress = showProgress
      ? createProgressRenderer({ write: (t) => process.stderr.write(t), live: process.stderr.isTTY })
      : NO_PROGRESS;
    let outcomes: ConnectorOutcome[];
    try {
      outcomes = await runConfiguredConnectors({
        loaded,
        connectorIds,
        ...(client === undefined ? {} : { client }),
        logger: createRunLogger(),
        dryRun,
        force: flags.force,
        awaitParse: flags['parse-timeout'] === 0 ? false : { timeoutMs: flags['parse-timeout'] * 1000 },
        ...(flags['save-payload'] === undefined ? {} : { savePayload: flags['save-payload'] }),
        ...source,
        signal: this.signal,
        onProgress: (event) => progress.onProgress(event),
      });
    } finally {
      progress.finish();
    }
    const output = runOutput(outcomes, dryRun);
    if (flags.report !== undefined) await writeReport(flags.report, output);
    this.show(output);
    const failure = runFailure(outcomes, output, flags['fail-on-warnings']);
    if (failure !== undefined) {
      if (outcomes.length > 1)
        for (const o of outcomes) if (!o.ok && !this.jsonEnabled()) this.note(this.renderError(o.error));
      throw failure;
    }
    return output;
  }

  /** `--check`: each connector's config, secrets and own check, one line each; the first failure stops. */
  private async check(
    loaded: LoadedConfig,
    connectorIds: string[],
    source: SourceFlags,
  ): Promise<CheckResult[]> {
    const { checkConfiguredConnector } = await import('@oaakit/runner');
    const checks: CheckResult[] = [];
    for (const connectorId of connectorIds) {
      const result = await checkConfiguredConnector({ loaded, connectorId, signal: this.signal, ...source });
      checks.push(result);
      this.log(
        result.checked
          ? `${connectorId}: ok (checked in ${result.durationMs} ms)`
          : `${connectorId}: config and secrets ok; the connector has no check of its own`,
      );
    }
    return checks;
  }

  private show(output: RunOutput): void {
    if (output.results.length === 0) return;
    if (output.dryRun) {
      for (const r of output.results) for (const line of diffLines(r)) this.log(line);
    } else {
      this.log(summaryTable(output.results));
    }
    for (const r of output.results) this.showWarnings(r);
  }

  private showWarnings(r: RunResult): void {
    if (r.guard?.forced && r.guard.removed > 0) {
      this.log(
        `${r.connectorId}: deletion guard overridden by --force (removes ${r.guard.removed} of ${r.guard.previous} ${r.guard.kind})`,
      );
    }
    const lines = [
      ...r.validationWarnings.map((w) => `${w.field}: ${w.description}`),
      ...r.warnings.map((w) => w.message),
    ];
    if (r.status === 'pushed' && r.parse !== undefined) {
      const { status, dataSourceStatus, event } = r.parse;
      this.log(
        `${r.connectorId}: parse ${status}${dataSourceStatus === null ? '' : `, data source ${dataSourceStatus}`}${event === null ? '' : `, OAA_PUSH event ${event.severity} with ${event.warnings.length} warning(s)`}`,
      );
      // The event's warnings usually repeat the push answer's; list only those it adds.
      const shown = new Set(lines);
      for (const w of event?.warnings ?? []) if (!shown.has(w)) lines.push(`(push event) ${w}`);
    }
    for (const line of connectorWarningLines(r)) this.log(line);
    if (lines.length === 0) return;
    this.log(`Warnings of ${r.connectorId} (${lines.length}):`);
    for (const line of lines.slice(0, MAX_WARNING_LINES)) this.log(`  ${line}`);
    if (lines.length > MAX_WARNING_LINES)
      this.log(
        `  ... and ${lines.length - MAX_WARNING_LINES} more (all of them are in --json and --report output)`,
      );
  }
}
