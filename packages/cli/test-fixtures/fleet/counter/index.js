// Test fixture of the fleet (`oaa worker`): every run pushes a payload that differs from the last
// one, because its description names the run's number, counted in the connector's saved state (`ctx.state`). With
// the state shared in Redis, the pushed numbers go 1, 2, 3, ... whichever worker runs the connector.
// `fail: true` makes every run fail while extracting. `hold: PATH` holds a run while PATH exists.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';

const configSchema = z.strictObject({
  fail: z.boolean().default(false),
  /** Users in the payload besides the run's own, to make pushes bigger. */
  users: z.number().int().min(0).max(100000).default(3),
  /**
   * While this file exists, a run waits at the start of its extraction, having written `PATH.held`:
   * it holds the data source's lock then, and has not pushed.
   */
  hold: z.string().optional(),
});

async function extract(ctx) {
  if (ctx.config.fail) throw new Error('the source system is down (fixture: fail is true)');
  const hold = ctx.config.hold;
  if (hold !== undefined && existsSync(hold)) {
    await writeFile(`${hold}.held`, '');
    while (existsSync(hold)) await sleep(20, undefined, { signal: ctx.signal });
  }
  const run = (ctx.state.get('runs') ?? 0) + 1;
  ctx.state.set('runs', run);
  const names = Array.from({ length: ctx.config.users }, (_, i) => `user-${i}`);
  return {
    applications: [
      {
        name: 'Counter',
        application_type: 'Counter',
        description: `run ${run}`,
        local_users: names.map((name) => ({ name, identities: [`${name}@example.com`] })),
        local_groups: [],
        local_roles: [],
      },
    ],
    permissions: [],
    identity_to_permissions: [],
  };
}

export default defineConnector({
  id: 'counter',
  version: '0.0.1',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'oaa worker test fixture: a new payload on every run',
  configSchema,
  extract,
});
