/** The `ctx` a connector's `check` and `extract` receive. */
import { OaaError } from '@oaakit/core';
import type { ConnectorContext, ConnectorLogger, ConnectorState, ProgressReporter } from '@oaakit/core';
import type { ConnectorWarnings } from './connector-warnings.js';
import { createSourceHttp } from './source-http.js';

/** `ctx.state` over a copy of the saved values; the runner saves them only when the run succeeds. */
export function createConnectorState(saved: Record<string, unknown>): {
  state: ConnectorState;
  values: () => Record<string, unknown>;
} {
  const values: Record<string, unknown> = structuredClone(saved);
  return {
    state: {
      get<T>(key: string): T | undefined {
        return values[key] as T | undefined;
      },
      set(key: string, value: unknown): void {
        let copy: unknown;
        try {
          copy = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
        } catch (cause) {
          throw new OaaError(`ctx.state.set(${JSON.stringify(key)}): the value must be JSON`, {
            code: 'STATE_VALUE_INVALID',
            cause,
          });
        }
        if (copy === undefined) delete values[key];
        else values[key] = copy;
      },
    },
    values: () => values,
  };
}

/** Options of {@link createConnectorContext}. */
export interface ConnectorContextOptions<Config> {
  config: Config;
  secrets: Readonly<Record<string, string>>;
  logger: ConnectorLogger;
  /** Keeps what the connector logs with `ctx.logger.warn` for the run's result (the log still has it). */
  warnings?: ConnectorWarnings;
  signal: AbortSignal;
  state: ConnectorState;
  progress: ProgressReporter;
  fetch?: typeof globalThis.fetch;
  /** Where relative paths in the connector's config are resolved from (the config file's directory). */
  baseDir?: string | undefined;
}

/** Assembles a connector context. */
export function createConnectorContext<Config>(
  options: ConnectorContextOptions<Config>,
): ConnectorContext<Config, string> {
  return {
    config: options.config,
    secrets: Object.freeze({ ...options.secrets }),
    logger: options.warnings === undefined ? options.logger : options.warnings.wrap(options.logger),
    signal: options.signal,
    http: createSourceHttp({
      signal: options.signal,
      logger: options.logger,
      secrets: Object.values(options.secrets),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
    progress: options.progress,
    state: options.state,
    ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }),
  };
}
