/**
 * The connector acceptance kit on the redmine manifest, as `oaa plugins test` runs it: one test per
 * check, against a throwaway Redmine loaded with the fixture (users of every status, groups, a
 * project tree, memberships), read in pages of 2 so that paging is exercised, with the memory bound
 * the package.json declares.
 */
import { fileURLToPath } from 'node:url';
import { readAcceptanceBounds, runAcceptance } from '@oaakit/runner/testing';
import { afterAll, beforeAll } from 'vitest';
import restConnector from './index.js';
import { AUDITOR_ROLE_SQL, loadRedmineFixture } from './private-test-helpers/redmine-fixture.js';
import { startRedmine, type RedmineServer } from './testing/redmine-server.js';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));

let redmine: RedmineServer;
beforeAll(async () => {
  redmine = await startRedmine({ sql: AUDITOR_ROLE_SQL });
  await loadRedmineFixture(redmine);
});
afterAll(() => redmine?.stop());

const bounds = await readAcceptanceBounds(PLUGIN_DIR);

await runAcceptance(restConnector, () => ({
  config: { manifest: 'redmine', vars: { url: redmine.url, page_size: 2 } },
  secrets: { apiKey: redmine.apiKey },
  bounds,
}));
