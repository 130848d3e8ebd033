/** Runs the connectors of a config file: plugin loading, secrets, then the pipeline. */
import { resolve } from 'node:path';
import type { Client } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import type { Connector } from '@oaakit/core';
import type { Logger } from 'pino';
import { RUNNER_ERROR_CODES } from './codes.js';
import type { LoadedConfig } from './config/load-config.js';
import type { ConnectorEntry } from './config/schema.js';
import { resolveSecrets } from './credentials/secrets.js';
import type { SecretSources } from './credentials/secrets.js';
import { connectorForConfig } from './plugins/for-config.js';
import { loadPlugin, resolvePluginDir } from './plugins/load-plugin.js';
import type { LoadedPlugin } from './plugins/load-plugin.js';
import { checkConnector } from './pipeline/check-step.js';
import type { CheckResult } from './pipeline/check-step.js';
import { runConnector } from './pipeline/run-connector.js';
import { wrapCause } from './pipeline/wrap-cause.js';
import type { PushSettings, RunFlags, RunResult } from './pipeline/run-types.js';
import { StateStore } from './state/state-store.js';
import { readAcceptanceBounds } from './acceptance/plugin-bounds.js';
import { runAcceptanceChecks } from './acceptance/run-acceptance.js';
import type { AcceptanceOptions, AcceptanceReport } from './acceptance/types.js';
import { silentLogger } from './logger.js';
import { openSource } from './pipeline/source-recording.js';

/** Options of {@link runConfiguredConnector}. */
export interface RunConfiguredOptions extends RunFlags {
  loaded: LoadedConfig;
  /** Id of the entry in `connectors`. */
  connectorId: string;
  /** The service client; required unless `dryRun`. The CLI makes one for the target or the embedded emulator. */
  client?: Client;
  logger?: Logger;
  push?: PushSettings;
  /** Where secret references are read; default the environment and the OS keychain. */
  secretSources?: SecretSources;
  /** Default a store on `loaded.stateDir`. */
  state?: StateStore;
}

/** The outcome of one connector among several. */
export type ConnectorOutcome =
  { connectorId: string; ok: true; result: RunResult } | { connectorId: string; ok: false; error: OaaError };

/** An error with the connector's id in front of its message, same code and details. */
function naming(connectorId: string, error: unknown): unknown {
  if (!(error instanceof OaaError) || error.message.includes(`"${connectorId}"`)) return error;
  // Only the runner's own errors get here (plugin loading, secrets): their codes are registered.
  const own = error as OaaError;
  return wrapCause(own, {
    code: own.code,
    message: `connector "${connectorId}"`,
    details: { connectorId, ...own.details },
  });
}

/** The config entry with this id; `CONNECTOR_NOT_FOUND` listing the ids otherwise. */
export function findConnectorEntry(
  loaded: LoadedConfig,
  connectorId: string,
): { entry: ConnectorEntry; index: number } {
  const index = loaded.config.connectors.findIndex((c) => c.id === connectorId);
  const entry = loaded.config.connectors[index];
  if (entry === undefined) {
    const ids = loaded.config.connectors.map((c) => c.id);
    throw new OaaError(`no connector "${connectorId}" in ${loaded.path}`, {
      code: RUNNER_ERROR_CODES.CONNECTOR_NOT_FOUND,
      details: { connectorId, available: ids },
      hints: [
        ids.length > 0
          ? `configured connectors: ${ids.join(', ')}`
          : 'add the connector to connectors in the config file',
      ],
    });
  }
  return { entry, index };
}

/**
 * Loads the plugin of a config entry (for `oaa plugins` and `oaa run --check` as well as runs). Its
 * `connector` is the one that runs the entry's config: what `forConfig` makes of it, for a
 * connector that has one (see `connectorForConfig`).
 */
export async function loadConnectorPlugin(loaded: LoadedConfig, connectorId: string): Promise<LoadedPlugin> {
  const { entry, index } = findConnectorEntry(loaded, connectorId);
  try {
    const plugin = await loadPlugin(entry.plugin, { baseDir: loaded.dir });
    const connector = await connectorForConfig(plugin.connector, entry.config, {
      connectorId,
      keyPath: `connectors[${index}].config`,
      baseDir: loaded.dir,
    });
    return { ...plugin, connector };
  } catch (error) {
    throw naming(connectorId, error);
  }
}

/**
 * The values of the secrets a config entry references, resolved as every run, check and acceptance
 * run resolves them; a failure names the connector.
 */
async function entrySecrets(
  options: Pick<RunConfiguredOptions, 'loaded' | 'connectorId' | 'secretSources'>,
  connector: Connector,
  entry: ConnectorEntry,
  index: number,
): Promise<Record<string, string>> {
  const { connectorId } = options;
  try {
    return await resolveSecrets({
      connector,
      connectorId,
      references: entry.secrets,
      keyPath: `connectors[${index}].secrets`,
      ...options.secretSources,
    });
  } catch (error) {
    throw naming(connectorId, error);
  }
}

/**
 * Runs one connector of a loaded config.
 *
 * @example
 * const loaded = await loadConfig();
 * const result = await runConfiguredConnector({ loaded, connectorId: 'hr', client, logger, onProgress: render });
 */
export async function runConfiguredConnector(options: RunConfiguredOptions): Promise<RunResult> {
  const { loaded, connectorId } = options;
  const { entry, index } = findConnectorEntry(loaded, connectorId);
  const { connector } = await loadConnectorPlugin(loaded, connectorId);
  const secrets = await entrySecrets(options, connector, entry, index);
  const maxDeletionShare = options.maxDeletionShare ?? entry.maxDeletionShare;
  return runConnector({
    ...options,
    connector,
    connectorId,
    config: entry.config,
    configKeyPath: `connectors[${index}].config`,
    secrets,
    provider: entry.provider,
    dataSource: entry.dataSource,
    state: options.state ?? new StateStore(loaded.stateDir),
    baseDir: loaded.dir,
    ...(maxDeletionShare === undefined ? {} : { maxDeletionShare }),
    ...(entry.record?.scrubFields === undefined ? {} : { scrubFields: entry.record.scrubFields }),
  });
}

/** Options of {@link checkConfiguredConnector}. */
export type CheckConfiguredOptions = Pick<
  RunConfiguredOptions,
  'loaded' | 'connectorId' | 'logger' | 'signal' | 'secretSources' | 'state' | 'record' | 'replay'
>;

/**
 * Loads the plugin, resolves the secrets and runs the connector's `check` (`oaa run --check`),
 * recording or replaying its source when asked (`record`, `replay`).
 */
export async function checkConfiguredConnector(options: CheckConfiguredOptions): Promise<CheckResult> {
  const { loaded, connectorId } = options;
  const { entry, index } = findConnectorEntry(loaded, connectorId);
  const { connector } = await loadConnectorPlugin(loaded, connectorId);
  const secrets = await entrySecrets(options, connector, entry, index);
  return checkConnector({
    connector,
    connectorId,
    config: entry.config,
    configKeyPath: `connectors[${index}].config`,
    secrets,
    state: options.state ?? new StateStore(loaded.stateDir),
    baseDir: loaded.dir,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.record === undefined ? {} : { record: options.record }),
    ...(options.replay === undefined ? {} : { replay: options.replay }),
    ...(entry.record?.scrubFields === undefined ? {} : { scrubFields: entry.record.scrubFields }),
  });
}

/**
 * Runs several connectors of a config one after another (all of them by default), collecting each
 * outcome; one failing does not stop the others, an abort does.
 */
export async function runConfiguredConnectors(
  options: Omit<RunConfiguredOptions, 'connectorId'> & { connectorIds?: readonly string[] },
): Promise<ConnectorOutcome[]> {
  const ids = options.connectorIds ?? options.loaded.config.connectors.map((c) => c.id);
  for (const id of ids) findConnectorEntry(options.loaded, id);
  const outcomes: ConnectorOutcome[] = [];
  for (const connectorId of ids) {
    options.signal?.throwIfAborted();
    try {
      outcomes.push({
        connectorId,
        ok: true,
        result: await runConfiguredConnector({ ...options, connectorId }),
      });
    } catch (error) {
      if (!(error instanceof OaaError)) throw error;
      // A run fails with the runner's own errors (`wrapCause`), whose codes are registered.
      outcomes.push({ connectorId, ok: false, error: error as OaaError });
      if (error.code === RUNNER_ERROR_CODES.ABORTED) break;
    }
  }
  return outcomes;
}

/**
 * The plugin directory `dir` (symlinks resolved); `PLUGIN_INVALID` when it holds no package.json.
 */
function pluginDirectory(dir: string): string {
  const found = resolvePluginDir(resolve(dir), { baseDir: dir });
  if (found === undefined)
    throw new OaaError(`no package.json in ${resolve(dir)}`, {
      code: RUNNER_ERROR_CODES.PLUGIN_INVALID,
      details: { plugin: dir },
      hints: ["give the plugin's directory, the one with its package.json"],
    });
  return found;
}

/**
 * The ids of the connectors of a loaded config whose `plugin` is the plugin in `pluginDir` (as a
 * run finds it, symlinks resolved), in config order. Throws `PLUGIN_INVALID` when `pluginDir` has
 * no package.json.
 *
 * @example
 * const [connectorId] = connectorsOfPlugin(loaded, 'plugins/scim-app'); // ['wiki']
 */
export function connectorsOfPlugin(loaded: LoadedConfig, pluginDir: string): string[] {
  const dir = pluginDirectory(pluginDir);
  return loaded.config.connectors
    .filter((c) => resolvePluginDir(c.plugin, { baseDir: loaded.dir }) === dir)
    .map((c) => c.id);
}

/** Options of {@link acceptConfiguredConnector}. */
export interface AcceptConfiguredOptions extends Pick<AcceptanceOptions, 'only' | 'onCheck' | 'log'> {
  /** The config file holding the connector entry. */
  loaded: LoadedConfig;
  /** Id of the entry in `connectors`: its config, secrets and `record.scrubFields` are used. */
  connectorId: string;
  /** The plugin's directory: the entry's `plugin` must be that plugin (`CONNECTOR_NOT_FOUND` if not). */
  pluginDir?: string;
  /** Where secret references are read; default the environment and the OS keychain. */
  secretSources?: SecretSources;
  /**
   * Records every source request the checks make (and the answers) in this HAR file, written when
   * they have run, scrubbed as `oaa run --record` scrubs; a replay of it answers every check.
   */
  record?: string;
  /** Answers the source requests from this HAR file (`recorded` of the kit); not with `record`. */
  replay?: string;
  /** Logs a recording that could not be written after a failure; default silent. */
  logger?: Logger;
}

/** What {@link acceptConfiguredConnector} did. */
export interface AcceptedConnector {
  /** The connector entry's id. */
  connectorId: string;
  /** The plugin's directory (symlinks resolved). */
  pluginDir: string;
  /** The limits the plugin declares in its package.json (`oaakit.acceptance`). */
  bounds: NonNullable<AcceptanceOptions['bounds']>;
  /** The kit's report. */
  report: AcceptanceReport;
}

function checkCounts(report: AcceptanceReport): string {
  const failed = report.checks.filter((c) => !c.ok).length;
  const skipped = report.checks.filter((c) => c.skipped).length;
  const passed = report.checks.length - failed - skipped;
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/**
 * Runs the acceptance checks (`runAcceptanceChecks`) on the connector of a config entry, as
 * `oaa run` would run it: the plugin loaded, the secrets resolved and the config taken from the
 * entry, relative paths resolved from the config file, with the bounds of the plugin's
 * package.json (`readAcceptanceBounds`). With `replay`, the source is the HAR file (the kit's
 * `recorded`); with `record`, the checks' source requests are recorded into one, except those
 * with a wrong secret. Throws what loading the plugin and resolving the secrets throw, what the
 * files of `record` and `replay` throw (`HAR_INVALID`), `INVALID_ARGUMENT` for a name in `only`
 * that is not a check; a failed check is in the report, not thrown.
 *
 * @example
 * const loaded = await loadConfig({ path: 'oaa.config.yaml' });
 * const { report } = await acceptConfiguredConnector({ loaded, connectorId: 'wiki', pluginDir: '.' });
 * process.stdout.write(formatAcceptanceReport(report));
 */
export async function acceptConfiguredConnector(
  options: AcceptConfiguredOptions,
): Promise<AcceptedConnector> {
  const { loaded, connectorId, record, replay } = options;
  const { entry, index } = findConnectorEntry(loaded, connectorId);
  if (options.pluginDir !== undefined) {
    const wanted = pluginDirectory(options.pluginDir);
    if (resolvePluginDir(entry.plugin, { baseDir: loaded.dir }) !== wanted) {
      const others = connectorsOfPlugin(loaded, wanted);
      throw new OaaError(
        `connector "${connectorId}" of ${loaded.path} runs the plugin ${entry.plugin}, not the one in ${wanted}`,
        {
          code: RUNNER_ERROR_CODES.CONNECTOR_NOT_FOUND,
          details: { connectorId, plugin: entry.plugin, pluginDir: wanted, connectors: others },
          hints: [
            others.length > 0
              ? `connectors of that plugin: ${others.join(', ')}`
              : `add a connector whose plugin is ${wanted} to ${loaded.path}`,
          ],
        },
      );
    }
  }
  const { connector, dir } = await loadConnectorPlugin(loaded, connectorId);
  const bounds = await readAcceptanceBounds(dir);
  const secrets = await entrySecrets(options, connector, entry, index);
  const source = await openSource(
    { record, replay, secrets, scrubFields: entry.record?.scrubFields },
    `acceptance checks of connector "${connectorId}" (plugin ${connector.id} ${connector.version})`,
  );
  let report: AcceptanceReport;
  try {
    report = await runAcceptanceChecks(connector, {
      config: entry.config,
      secrets,
      baseDir: loaded.dir,
      connectorId,
      bounds,
      ...(source.fetch === undefined ? {} : { fetch: source.fetch }),
      ...(replay === undefined ? {} : { recorded: true }),
      ...(record === undefined ? {} : { unrecordedFetch: globalThis.fetch }),
      ...(options.only === undefined ? {} : { only: options.only }),
      ...(options.onCheck === undefined ? {} : { onCheck: options.onCheck }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
  } catch (error) {
    await source.failed(error, options.logger ?? silentLogger());
    throw error;
  }
  await source.succeeded(checkCounts(report));
  return { connectorId, pluginDir: dir, bounds, report };
}
