import { CONNECTOR_API_VERSION, defineConnector } from '@oaakit/core';
import { buildPayload, configSchema } from '../app/build.js';

export const connector = defineConnector({
  id: 'fixture-app-with-secret',
  version: '1.0.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  configSchema,
  secrets: [{ name: 'token', description: 'API token of the fixture source' }],
  async check(ctx) {
    if (ctx.config.revision === 'unreachable')
      throw new Error('source at https://source.example is unreachable');
  },
  async extract(ctx) {
    if (ctx.secrets.token !== 'fixture-token-value') throw new Error('wrong token');
    return buildPayload(ctx);
  },
});
