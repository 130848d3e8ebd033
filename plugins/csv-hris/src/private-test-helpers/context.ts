/**
 * The CSV connector's context for tests: the test kit's (`@oaakit/runner/testing`, the runner's own
 * context) with the config parsed by the connector's schema, and what the connector reported through
 * it read back as progress phases, ticks and log objects.
 */
import { fileURLToPath } from 'node:url';
import type { ConnectorContext } from '@oaakit/core';
import { testContext as kitContext } from '@oaakit/runner/testing';
import { csvHrisConfigSchema, type CsvHrisConfig, type CsvHrisConfigInput } from '../config.js';

/** Absolute path of a file under `fixtures/`. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
}

/** A test context and what the connector reported through it. */
export interface TestContext extends ConnectorContext<CsvHrisConfig, never> {
  /** Rows counted through `progress.tick`. */
  readonly ticks: number;
  /** Phases started through `progress.start`, in order. */
  readonly phases: string[];
  /** The objects of the log lines, in order. */
  readonly logs: unknown[];
}

/** A context for `config`; aborting `signal` aborts the context's own signal. */
export function testContext(config: CsvHrisConfigInput, signal?: AbortSignal): TestContext {
  const t = kitContext({ config: csvHrisConfigSchema.parse(config) });
  if (signal?.aborted) t.controller.abort(signal.reason);
  signal?.addEventListener('abort', () => t.controller.abort(signal.reason), { once: true });
  return Object.create(t.ctx, {
    ticks: {
      get: () => t.progress.reduce((n, [kind, count]) => n + (kind === 'tick' ? Number(count) : 0), 0),
    },
    phases: { get: () => t.progress.filter(([kind]) => kind === 'start').map(([, phase]) => String(phase)) },
    logs: { get: () => t.logs.map(([, , obj]) => obj) },
  }) as TestContext;
}
