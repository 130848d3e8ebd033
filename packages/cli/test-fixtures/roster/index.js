// Test fixture of the CLI's end-to-end tests: an application whose local users are listed in the config.
import { setTimeout as sleep } from 'node:timers/promises';
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';

const configSchema = z.strictObject({
  users: z.array(z.string()).default(['ada', 'bob', 'cy', 'dee', 'eve']),
  /** Throws after this many users, as a source that goes away mid-extraction. */
  failAfter: z.number().int().optional(),
  /** Makes the first user name a group that does not exist, which validation rejects. */
  invalid: z.boolean().default(false),
  /** Waits this long after each user, so a test can interrupt the run mid-extraction. */
  delayMs: z.number().int().min(0).default(0),
  /** Marks the payload incremental, which the service refuses as the first push to a data source. */
  incremental: z.boolean().default(false),
  /** Logs this many warnings once the users are read (with a password among the details, redacted). */
  warnings: z.number().int().min(0).default(0),
});

async function* localUsers(config, ctx) {
  ctx.progress.start('users', config.users.length);
  for (const [i, name] of config.users.entries()) {
    if (config.failAfter !== undefined && i >= config.failAfter)
      throw new Error(`roster source went away after ${config.failAfter} users`);
    ctx.progress.tick();
    if (config.delayMs > 0) await sleep(config.delayMs, undefined, { signal: ctx.signal });
    yield {
      name,
      identities: [`${name}@example.com`],
      groups: config.invalid && i === 0 ? ['no-such-group'] : ['staff'],
    };
  }
  for (let i = 1; i <= config.warnings; i++)
    ctx.logger.warn({ note: i, password: 'roster-password' }, `roster note ${i} of ${config.warnings}`);
}

export default defineConnector({
  id: 'roster',
  version: '0.0.1',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'CLI test fixture: a roster of local users',
  configSchema,
  extract: (ctx) => ({
    applications: [
      {
        name: 'Roster',
        application_type: 'Roster',
        local_users: localUsers(ctx.config, ctx),
        local_groups: [{ name: 'staff' }],
        local_roles: [{ name: 'member', permissions: ['Read'] }],
      },
    ],
    permissions: [{ name: 'Read', permission_type: ['DataRead'] }],
    identity_to_permissions: [],
    ...(ctx.config.incremental ? { incremental_change: true } : {}),
  }),
});
