import { CONNECTOR_API_VERSION, defineConnector } from '@oaakit/core';
import { buildPayload, configSchema } from './build.js';

export default defineConnector({
  id: 'fixture-app',
  version: '1.2.3',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'test fixture: an application with N local users',
  configSchema,
  provider: { lifecycleManagementType: 'SCIM' },
  extract: buildPayload,
});
