/**
 * The connector acceptance kit on scim-app, as `oaa plugins test` runs it: one test per check,
 * against the real SCIM test server (started here on port 0, pages of 2 so that paging is
 * exercised), with the memory bound the package.json declares. A wrong bearer token is refused by
 * the server itself.
 */
import { fileURLToPath } from 'node:url';
import { readAcceptanceBounds, runAcceptance } from '@oaakit/runner/testing';
import { afterAll, beforeAll } from 'vitest';
import connector from './index.js';
import { startScimServer } from './private-test-helpers/scim-server.js';
import type { ScimServer } from './private-test-helpers/scim-server.js';
import { directory } from './private-test-helpers/seed.js';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'scim-acceptance-token-8c41d7';

let server: ScimServer;
beforeAll(async () => {
  server = await startScimServer({ ...directory(), auth: { type: 'bearer', token: TOKEN } });
});
afterAll(() => server.close());

const bounds = await readAcceptanceBounds(PLUGIN_DIR);

// A function: the server only exists once beforeAll has run.
await runAcceptance(connector, () => ({
  config: {
    baseUrl: server.baseUrl,
    applicationName: 'Wiki',
    applicationType: 'WikiApp',
    auth: { type: 'bearer' },
    pageSize: 2,
  },
  secrets: { credential: TOKEN },
  bounds,
}));
