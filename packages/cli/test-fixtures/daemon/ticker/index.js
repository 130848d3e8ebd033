// Test fixture of `oaa daemon`: a small application whose runs can be slowed down or held, and which
// journals when each run's extraction starts and ends, so a test can see whether runs overlapped.
import { appendFileSync, existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';

const configSchema = z.strictObject({
  users: z.array(z.string()).default(['ada', 'bob', 'cy']),
  /** Milliseconds each extraction takes (cut short when the run is aborted). */
  sleepMs: z.number().int().min(0).default(0),
  /** While this file exists, extraction waits (until it is removed or the run is aborted). */
  holdFile: z.string().optional(),
  /** File to append `{"event":"start"|"held"|"end","at":...}` lines to. */
  journal: z.string().optional(),
});

function note(config, event) {
  if (config.journal !== undefined)
    appendFileSync(config.journal, `${JSON.stringify({ event, at: Date.now() })}\n`);
}

async function extract(ctx) {
  const config = ctx.config;
  note(config, 'start');
  if (config.sleepMs > 0) await sleep(config.sleepMs, undefined, { signal: ctx.signal });
  if (config.holdFile !== undefined && existsSync(config.holdFile)) {
    note(config, 'held');
    while (existsSync(config.holdFile)) await sleep(50, undefined, { signal: ctx.signal });
  }
  note(config, 'end');
  return {
    applications: [
      {
        name: 'Ticker',
        application_type: 'Ticker',
        local_users: config.users.map((name) => ({
          name,
          identities: [`${name}@example.com`],
          groups: ['staff'],
        })),
        local_groups: [{ name: 'staff' }],
        local_roles: [{ name: 'member', permissions: ['Read'] }],
      },
    ],
    permissions: [{ name: 'Read', permission_type: ['DataRead'] }],
    identity_to_permissions: [],
  };
}

export default defineConnector({
  id: 'ticker',
  version: '0.0.1',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'oaa daemon test fixture: a slow, holdable application',
  configSchema,
  extract,
});
