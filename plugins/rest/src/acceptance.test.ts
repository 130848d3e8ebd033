/**
 * The connector acceptance kit on the scim manifest, as `oaa plugins test` runs it: one test per
 * check, against the SCIM test server of scim-app's tests (started here on port 0, pages of 2 so
 * that paging is exercised), with the memory bound the package.json declares. The REST connector
 * is handed over as it is: the kit checks the connector its config makes (`forConfig`).
 */
import { fileURLToPath } from 'node:url';
import { readAcceptanceBounds, runAcceptance } from '@oaakit/runner/testing';
import { afterAll, beforeAll } from 'vitest';
import restConnector from './index.js';
import { directory, startScimServer, type ScimServer } from './private-test-helpers/scim.js';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'scim-manifest-acceptance-token-51d0';

let server: ScimServer;
beforeAll(async () => {
  server = await startScimServer({ ...directory(), auth: { type: 'bearer', token: TOKEN } });
});
afterAll(() => server.close());

const bounds = await readAcceptanceBounds(PLUGIN_DIR);

await runAcceptance(restConnector, () => ({
  config: { manifest: 'scim', vars: { url: server.baseUrl, page_size: 2 } },
  secrets: { token: TOKEN },
  bounds,
}));
