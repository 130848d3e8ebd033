/**
 * The bench connector: a plugin whose `extract` returns bench-app-N (`config.users` local users)
 * from bench-app.ts's generator, users and grants as streamed collections. `npm run bench:run`
 * runs it through the built `oaa run`; its plugin directory is `test/bench/connector`.
 */
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';
import { buildBenchApp } from './bench-app.js';

export default defineConnector({
  id: 'bench',
  version: '0.1.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'bench-app-N, the benchmark payload, users and grants streamed',
  configSchema: z.strictObject({ users: z.number().int().min(1) }),
  extract: (ctx) => buildBenchApp(ctx.config.users, 'streamed'),
});
