/** `oaa run --check`: the connector's own cheap reachability and credentials check, nothing else. */
import type { Connector } from '@oaakit/core';
import type { Logger } from 'pino';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { silentLogger } from '../logger.js';
import type { StateStore } from '../state/state-store.js';
import { createConnectorContext, createConnectorState } from './connector-context.js';
import { abortedRun, parseConnectorConfig } from './extract-step.js';
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
 * Checks the config against the connector's schema and runs its `check(ctx)` if it has one. Throws
 * `CONFIG_INVALID`, `CHECK_FAILED` (naming the connector, the cause attached) or `ABORTED`.
 */
export async function checkConnector(options: CheckConnectorOptions): Promise<CheckResult> {
  const started = Date.now();
  const { connector } = options;
  const connectorId = options.connectorId ?? connector.id;
  const config = parseConnectorConfig(
    connector,
    options.config,
    options.configKeyPath ?? 'config',
    connectorId,
  );
  if (connector.check === undefined) return { connectorId, checked: false, durationMs: Date.now() - started };
  const signal = options.signal ?? new AbortController().signal;
  const saved = (await options.state?.read(connectorId))?.connectorState ?? {};
  const ctx = createConnectorContext({
    config,
    secrets: options.secrets ?? {},
    logger: (options.logger ?? silentLogger()).child({ connector: connectorId }),
    signal,
    state: createConnectorState(saved).state,
    progress: { start: () => undefined, tick: () => undefined },
    baseDir: options.baseDir,
    ...(options.sourceFetch ? { fetch: options.sourceFetch } : {}),
  });
  try {
    await connector.check(ctx);
  } catch (cause) {
    if (signal.aborted) throw abortedRun(connectorId, cause);
    throw wrapCause(cause, {
      code: RUNNER_ERROR_CODES.CHECK_FAILED,
      message: `connector "${connectorId}" (plugin ${connector.id}): check failed`,
      details: { connectorId },
    });
  }
  return { connectorId, checked: true, durationMs: Date.now() - started };
}
