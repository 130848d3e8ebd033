/** `oaa run --check`: the connector's own cheap reachability and credentials check, nothing else. */
import type { Connector } from '@oaakit/core';
import type { Logger } from 'pino';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { connectorForConfig } from '../plugins/for-config.js';
import { silentLogger } from '../logger.js';
import { scrubbingLogger } from './scrubbing-logger.js';
import type { StateStore } from '../state/state-store.js';
import { createConnectorContext, createConnectorState } from './connector-context.js';
import { abortedRun, parseConnectorConfig } from './extract-step.js';
import { openSource } from './source-recording.js';
import { wrapCause } from './wrap-cause.js';

/** Options of {@link checkConnector}. */
export interface CheckConnectorOptions {
  connector: Connector;
  connectorId?: string;
  config?: unknown;
  configKeyPath?: string;
  secrets?: Readonly<Record<string, string>>;
  /** Read for the connector's saved values; nothing is written. */
  state?: StateStore;
  logger?: Logger;
  signal?: AbortSignal;
  sourceFetch?: typeof globalThis.fetch;
  /** Records the check's source requests in this HAR file (see `RunFlags.record`). */
  record?: string;
  /** Answers the check's source requests from this HAR file (see `RunFlags.replay`). */
  replay?: string;
  /** See `RunConnectorOptions.scrubFields`. */
  scrubFields?: readonly string[];
  /** Where relative paths in the connector's config are resolved from; default the working directory. */
  baseDir?: string;
}

/** What a check found. */
export interface CheckResult {
  connectorId: string;
  /** False when the connector has no `check`: only its config and secrets were verified. */
  checked: boolean;
  durationMs: number;
}

/**
 * Checks the config against the connector's schema (a connector with `forConfig`: the schema of the
 * connector it makes of the config) and runs its `check(ctx)` if it has one, recording
 * or replaying its source when asked. Throws `CONFIG_INVALID`, `CHECK_FAILED` (naming the connector,
 * the cause attached), `ABORTED` or `HAR_INVALID`.
 */
export async function checkConnector(options: CheckConnectorOptions): Promise<CheckResult> {
  const started = Date.now();
  const connectorId = options.connectorId ?? options.connector.id;
  const connector = await connectorForConfig(options.connector, options.config, {
    connectorId,
    keyPath: options.configKeyPath,
    baseDir: options.baseDir,
  });
  const config = parseConnectorConfig(
    connector,
    options.config,
    options.configKeyPath ?? 'config',
    connectorId,
  );
  const source = await openSource(
    options,
    `check of connector "${connectorId}" (plugin ${connector.id} ${connector.version})`,
  );
  if (connector.check === undefined) {
    await source.succeeded('the connector has no check of its own');
    return { connectorId, checked: false, durationMs: Date.now() - started };
  }
  const signal = options.signal ?? new AbortController().signal;
  const saved = (await options.state?.read(connectorId))?.connectorState ?? {};
  const logger = scrubbingLogger(
    (options.logger ?? silentLogger()).child({ connector: connectorId }),
    Object.values(options.secrets ?? {}),
  );
  const ctx = createConnectorContext({
    config,
    secrets: options.secrets ?? {},
    logger,
    signal,
    state: createConnectorState(saved).state,
    progress: { start: () => undefined, tick: () => undefined },
    baseDir: options.baseDir,
    ...(source.fetch ? { fetch: source.fetch } : {}),
  });
  try {
    await connector.check(ctx);
  } catch (cause) {
    const error = signal.aborted
      ? abortedRun(connectorId, cause)
      : wrapCause(cause, {
          code: RUNNER_ERROR_CODES.CHECK_FAILED,
          message: `connector "${connectorId}" (plugin ${connector.id}): check failed`,
          details: { connectorId },
        });
    await source.failed(error, logger);
    throw error;
  }
  await source.succeeded('checked');
  return { connectorId, checked: true, durationMs: Date.now() - started };
}
