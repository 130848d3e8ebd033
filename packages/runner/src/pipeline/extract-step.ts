/**
 * Extract: the connector's config is checked, `extract` runs, and its result is made ready for the
 * run's one pass (`readyForStreaming`: large collections stay streamed) or materialized whole.
 */
import { OaaError } from '@oaakit/core';
import type { Connector, ConnectorState, JsonObject } from '@oaakit/core';
import type { Logger } from 'pino';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { formatViolations, schemaViolations } from '../config/issues.js';
import { createConnectorContext } from './connector-context.js';
import type { ConnectorWarnings } from './connector-warnings.js';
import { materialize } from './materialize.js';
import { readyForStreaming } from './stream-ready.js';
import { extractProgress, throttle } from './progress.js';
import type { Emit } from './progress.js';
import { wrapCause } from './wrap-cause.js';

/** The connector's config checked by its own `configSchema`; `CONFIG_INVALID` names each key path. */
export function parseConnectorConfig(
  connector: Connector,
  raw: unknown,
  keyPath: string,
  connectorId: string,
): unknown {
  const value = raw ?? {};
  const violations = schemaViolations(connector.configSchema, value, keyPath);
  if (violations.length > 0) {
    throw new OaaError(
      `connector "${connectorId}" (plugin ${connector.id}): invalid config:\n${formatViolations(violations)}`,
      {
        code: RUNNER_ERROR_CODES.CONFIG_INVALID,
        details: { connectorId, violations },
      },
    );
  }
  return connector.configSchema.parse(value);
}

/** The error of an aborted run. */
export function abortedRun(connectorId: string, cause?: unknown): OaaError {
  return new OaaError(`connector "${connectorId}": the run was aborted; the state is unchanged`, {
    code: RUNNER_ERROR_CODES.ABORTED,
    ...(cause === undefined ? {} : { cause }),
    details: { connectorId },
  });
}

/** The error of a connector whose `extract`, or a collection it returned, threw. */
export function extractFailed(connectorId: string, connector: Connector, cause: unknown): OaaError {
  return wrapCause(cause, {
    code: RUNNER_ERROR_CODES.EXTRACT_FAILED,
    message: `connector "${connectorId}" (plugin ${connector.id} ${connector.version}) failed while extracting`,
    details: { connectorId, plugin: connector.id },
    trailingHints: ['nothing was pushed and the state is unchanged'],
  });
}

/**
 * Runs `extract` and returns the payload: materialized when `whole`, else ready for streaming
 * (what its streamed collections throw when read later is `EXTRACT_FAILED` too).
 */
export async function extractPayload(options: {
  whole: boolean;
  connector: Connector;
  connectorId: string;
  config: unknown;
  secrets: Readonly<Record<string, string>>;
  state: ConnectorState;
  signal: AbortSignal;
  logger: Logger;
  /** Keeps the connector's `ctx.logger.warn` calls for the result. */
  warnings?: ConnectorWarnings;
  emit: Emit;
  fetch?: typeof globalThis.fetch | undefined;
  baseDir?: string | undefined;
}): Promise<JsonObject> {
  const { connector, connectorId, signal, emit } = options;
  const progress = extractProgress(emit);
  const ctx = createConnectorContext({
    config: options.config,
    secrets: options.secrets,
    logger: options.logger,
    ...(options.warnings === undefined ? {} : { warnings: options.warnings }),
    signal,
    state: options.state,
    progress,
    baseDir: options.baseDir,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  let drained = 0;
  const gate = throttle(100);
  const onItem = (): void => {
    drained += 1;
    if (gate.ready()) emit({ phase: 'extract', kind: 'progress', step: 'entities', done: drained });
  };
  let payload: unknown;
  try {
    const result: unknown = await connector.extract(ctx);
    payload = options.whole
      ? await materialize(result, { signal, onItem })
      : await readyForStreaming(
          connector.template,
          result,
          (error) =>
            signal.aborted ? abortedRun(connectorId, error) : extractFailed(connectorId, connector, error),
          { signal, onItem },
        );
  } catch (error) {
    if (signal.aborted) throw abortedRun(connectorId, error);
    throw extractFailed(connectorId, connector, error);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    const what = payload === null ? 'null' : Array.isArray(payload) ? 'a list' : typeof payload;
    throw extractFailed(connectorId, connector, new Error(`extract returned ${what}, not a payload object`));
  }
  return payload as JsonObject;
}
