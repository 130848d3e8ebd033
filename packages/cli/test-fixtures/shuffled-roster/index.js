// Test fixture of the CLI's end-to-end tests: a roster whose users get new ids at every extract,
// so that two extracts of the same roster differ. The acceptance kit's idempotent check fails it;
// every other check passes or does not apply (no source, no secrets).
import { randomUUID } from 'node:crypto';
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';

const configSchema = z.strictObject({
  names: z.array(z.string()).default(['ada', 'bob', 'cy']).describe('the names of the users'),
});

export default defineConnector({
  id: 'shuffled-roster',
  version: '0.0.1',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'CLI test fixture: a roster whose users get new ids at every extract',
  configSchema,
  async extract(ctx) {
    ctx.progress.start('users', ctx.config.names.length);
    ctx.signal.throwIfAborted();
    return {
      applications: [
        {
          name: 'Roster',
          application_type: 'Roster',
          local_users: ctx.config.names.map((name) => ({
            id: randomUUID(),
            name,
            identities: [`${name}@example.com`],
          })),
        },
      ],
      permissions: [],
      identity_to_permissions: [],
    };
  },
});
