/** Runs the connectors of a config file: plugin loading, secrets, then the pipeline. */
import type { Client } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import type { Logger } from 'pino';
import { RUNNER_ERROR_CODES } from './codes.js';
import type { LoadedConfig } from './config/load-config.js';
import type { ConnectorEntry } from './config/schema.js';
import { resolveSecrets } from './credentials/secrets.js';
import type { SecretSources } from './credentials/secrets.js';
import { loadPlugin } from './plugins/load-plugin.js';
import type { LoadedPlugin } from './plugins/load-plugin.js';
import { checkConnector } from './pipeline/check-step.js';
import type { CheckResult } from './pipeline/check-step.js';
import { runConnector } from './pipeline/run-connector.js';
import { wrapCause } from './pipeline/wrap-cause.js';
import type { PushSettings, RunFlags, RunResult } from './pipeline/run-types.js';
import { StateStore } from './state/state-store.js';

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

/** Loads the plugin of a config entry (for `oaa plugins` and `oaa run --check` as well as runs). */
export async function loadConnectorPlugin(loaded: LoadedConfig, connectorId: string): Promise<LoadedPlugin> {
  const { entry } = findConnectorEntry(loaded, connectorId);
  try {
    return await loadPlugin(entry.plugin, { baseDir: loaded.dir });
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
  let secrets: Record<string, string>;
  try {
    secrets = await resolveSecrets({
      connector,
      connectorId,
      references: entry.secrets,
      keyPath: `connectors[${index}].secrets`,
      ...options.secretSources,
    });
  } catch (error) {
    throw naming(connectorId, error);
  }
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
  const secrets = await resolveSecrets({
    connector,
    connectorId,
    references: entry.secrets,
    keyPath: `connectors[${index}].secrets`,
    ...options.secretSources,
  }).catch((error: unknown) => {
    throw naming(connectorId, error);
  });
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
