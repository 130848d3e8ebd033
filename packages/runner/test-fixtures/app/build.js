// The payload of the fixture connectors: `userCount` local users streamed from an async generator.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';

export const configSchema = z.strictObject({
  userCount: z.number().int().min(0).default(10),
  /** Changes the application's description, so a run differs from the last one without removals. */
  revision: z.string().default('1'),
  /** Throws after yielding this many users. */
  throwAfter: z.number().int().optional(),
  /** Waits until this file exists before returning (for concurrent runs). */
  waitForFile: z.string().optional(),
  /** Adds a dangling group reference, which validation rejects. */
  invalid: z.boolean().default(false),
  /** Bytes of incompressible filler per user, to make payloads span several multipart chunks. */
  filler: z.number().int().min(0).default(0),
  /** Marks the payload incremental, which the service refuses as the first push to a data source. */
  incremental: z.boolean().default(false),
});

function filler(i, n) {
  let out = '';
  let x = i * 7919 + 1;
  while (out.length < n) {
    x = (x * 48271) % 2147483647;
    out += x.toString(36);
  }
  return out.slice(0, n);
}

async function* users(config, ctx) {
  ctx.progress.start('users', config.userCount);
  for (let i = 1; i <= config.userCount; i++) {
    if (config.throwAfter !== undefined && i > config.throwAfter)
      throw new Error(`source went away after ${config.throwAfter} users`);
    const user = {
      name: `user${i}`,
      identities: [`user${i}@example.com`],
      groups: ['staff'],
      is_active: true,
    };
    if (config.filler > 0) user.custom_properties = { note: filler(i, config.filler) };
    if (config.invalid && i === 1) user.groups = ['no-such-group'];
    ctx.progress.tick();
    yield user;
  }
}

export async function buildPayload(ctx) {
  const config = ctx.config;
  if (config.waitForFile !== undefined) {
    while (!existsSync(config.waitForFile)) await sleep(20, undefined, { signal: ctx.signal });
  }
  ctx.state.set('runs', (ctx.state.get('runs') ?? 0) + 1);
  const definition =
    config.filler > 0
      ? { application_type: 'fixture', local_user_properties: { note: 'STRING' } }
      : undefined;
  return {
    ...(definition ? { custom_property_definition: { applications: [definition] } } : {}),
    applications: [
      {
        name: 'Fixture App',
        application_type: 'fixture',
        description: `revision ${config.revision}`,
        local_users: users(config, ctx),
        local_groups: [{ name: 'staff' }],
        local_roles: [{ name: 'reader', permissions: ['Read'] }],
        resources: [],
      },
    ],
    permissions: [{ name: 'Read', permission_type: ['DataRead'] }],
    identity_to_permissions: [],
    ...(config.incremental ? { incremental_change: true } : {}),
  };
}
