/** A connector context for tests: the config parsed by the connector's schema, progress recorded. */
import { fileURLToPath } from 'node:url';
import type { ConnectorContext } from '@oaakit/core';
import { csvHrisConfigSchema, type CsvHrisConfig, type CsvHrisConfigInput } from '../config.js';

/** Absolute path of a file under `fixtures/`. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
}

/** A test context and what the connector reported through it. */
export interface TestContext extends ConnectorContext<CsvHrisConfig, never> {
  ticks: number;
  phases: string[];
  logs: unknown[];
}

/** A context for `config`; `signal` defaults to one that never aborts. */
export function testContext(
  config: CsvHrisConfigInput,
  signal: AbortSignal = new AbortController().signal,
): TestContext {
  const state = new Map<string, unknown>();
  const ctx: TestContext = {
    config: csvHrisConfigSchema.parse(config),
    secrets: {},
    signal,
    ticks: 0,
    phases: [],
    logs: [],
    logger: {
      debug: (o) => void ctx.logs.push(o),
      info: (o) => void ctx.logs.push(o),
      warn: (o) => void ctx.logs.push(o),
      error: (o) => void ctx.logs.push(o),
    },
    progress: {
      start: (phase) => void ctx.phases.push(phase),
      tick: (n = 1) => void (ctx.ticks += n),
    },
    http: {
      request: () => Promise.reject(new Error('the csv-hris connector makes no HTTP requests')),
      json: () => Promise.reject(new Error('the csv-hris connector makes no HTTP requests')),
    },
    state: {
      get: <T>(key: string) => state.get(key) as T | undefined,
      set: (key, value) => void state.set(key, value),
    },
  };
  return ctx;
}
