// Test fixture of the fleet's scheduler: a connector with nothing to configure. The scheduler only
// loads it to check the config; its runs push one empty application.
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';

export default defineConnector({
  id: 'tick',
  version: '0.0.1',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'fleet scheduler test fixture',
  configSchema: z.strictObject({}),
  extract: async () => ({
    applications: [
      {
        name: 'Tick',
        application_type: 'Tick',
        local_users: [],
        local_groups: [],
        local_roles: [],
      },
    ],
    permissions: [],
    identity_to_permissions: [],
  }),
});
