/** A connector context for tests, built the way the runner will build one. */
import type { ConnectorContext, ConnectorLogger, ProgressReporter } from '@oaakit/core';
import {
  CREDENTIAL_SECRET,
  scimAppConfigSchema,
  type ScimAppConfig,
  type ScimAppConfigInput,
} from '../config.js';
import { createSourceHttp } from './source-http.js';

export interface TestContext {
  ctx: ConnectorContext<ScimAppConfig, typeof CREDENTIAL_SECRET>;
  /** Log lines, as `[level, message, object]`. */
  logs: [level: string, msg: string | undefined, obj: object | string][];
  /** Progress calls, e.g. `['start', 'users', 23]`, `['tick', 5]`. */
  progress: (string | number | undefined)[][];
  /** Retry-After waits the HTTP helper made. */
  waits: number[];
  controller: AbortController;
}

/** `config` is parsed by the connector's schema, as the runner does with the config file. */
export function testContext(config: ScimAppConfigInput, credential: string): TestContext {
  const logs: TestContext['logs'] = [];
  const line = (level: string) => (obj: object | string, msg?: string) => void logs.push([level, msg, obj]);
  const logger: ConnectorLogger = {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
  };
  const progress: TestContext['progress'] = [];
  const reporter: ProgressReporter = {
    start: (phase, total) => void progress.push(['start', phase, total]),
    tick: (n = 1) => void progress.push(['tick', n]),
  };
  const state = new Map<string, unknown>();
  const http = createSourceHttp();
  const controller = new AbortController();
  return {
    ctx: {
      config: scimAppConfigSchema.parse(config),
      secrets: { [CREDENTIAL_SECRET]: credential },
      logger,
      signal: controller.signal,
      http,
      progress: reporter,
      state: {
        get: <T>(key: string) => state.get(key) as T | undefined,
        set: (key, value) => void state.set(key, value),
      },
    },
    logs,
    progress,
    waits: http.waits,
    controller,
  };
}
