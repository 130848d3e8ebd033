/**
 * A connector context for calling a connector's `check` or `extract` directly in a test, built by the
 * runner's own `createConnectorContext`: `ctx.http` is the real source HTTP helper (retries,
 * `Retry-After`, timeouts, the abort signal), so a test sees what a run would do.
 */
import type { ConnectorContext, ConnectorLogger, ProgressReporter } from '@oaakit/core';
import { createConnectorContext, createConnectorState } from '../pipeline/connector-context.js';

/** One log line a connector (or `ctx.http`) wrote. */
export type TestLogLine = [
  level: 'debug' | 'info' | 'warn' | 'error',
  msg: string | undefined,
  obj: object | string,
];

/** Options of {@link testContext}. */
export interface TestContextOptions<Config, Secret extends string> {
  /** The connector's config, already parsed (e.g. `schema.parse(input)`, as the runner does). */
  config: Config;
  secrets?: Readonly<Record<Secret, string>>;
  /** Values saved by an earlier run, for `ctx.state.get`. */
  state?: Record<string, unknown>;
  /** Where relative paths in the config are resolved from. */
  baseDir?: string;
}

/** A context and what the connector reported through it. */
export interface TestContext<Config, Secret extends string> {
  ctx: ConnectorContext<Config, Secret>;
  /** Log lines in order, e.g. `['warn', 'retrying source request', { delayMs: 1000, ... }]`. */
  logs: TestLogLine[];
  /** Progress calls in order, e.g. `['start', 'users', 23]`, `['tick', 5]`. */
  progress: (string | number | undefined)[][];
  /** What the connector put in `ctx.state`. */
  state(): Record<string, unknown>;
  /** Aborts `ctx.signal`, as Ctrl-C or a daemon shutdown would. */
  controller: AbortController;
}

/**
 * A connector context for a test.
 *
 * @example
 * const t = testContext({ config: connector.configSchema.parse({ source }), secrets: { token } });
 * const payload = await connector.extract(t.ctx);
 */
export function testContext<Config, Secret extends string = never>(
  options: TestContextOptions<Config, Secret>,
): TestContext<Config, Secret> {
  const logs: TestLogLine[] = [];
  const line =
    (level: TestLogLine[0]) =>
    (obj: object | string, msg?: string): void =>
      void logs.push([level, msg, obj]);
  const logger: ConnectorLogger = {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
  };
  const progress: TestContext<Config, Secret>['progress'] = [];
  const reporter: ProgressReporter = {
    start: (phase, total) => void progress.push(['start', phase, total]),
    tick: (n = 1) => void progress.push(['tick', n]),
  };
  const state = createConnectorState(options.state ?? {});
  const controller = new AbortController();
  const ctx = createConnectorContext({
    config: options.config,
    secrets: options.secrets ?? {},
    logger,
    signal: controller.signal,
    state: state.state,
    progress: reporter,
    baseDir: options.baseDir,
  }) as ConnectorContext<Config, Secret>;
  return { ctx, logs, progress, state: state.values, controller };
}
