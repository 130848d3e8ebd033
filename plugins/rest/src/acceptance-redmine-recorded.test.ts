/**
 * The connector acceptance kit on the redmine manifest with no Redmine running: every check
 * replays the committed recording `fixtures/redmine-source.har` (kept current by
 * `recorded-redmine.test.ts`). A recording cannot refuse a credential, so the kit answers a wrong
 * key with 401 itself (`recorded`).
 */
import { fileURLToPath } from 'node:url';
import { readAcceptanceBounds, readHar, replayFetch, runAcceptance } from '@oaakit/runner/testing';
import restConnector from './index.js';
import { RECORDED_REDMINE } from './private-test-helpers/recorded-redmine.js';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));

await runAcceptance(restConnector, {
  config: RECORDED_REDMINE.config,
  secrets: RECORDED_REDMINE.secrets,
  fetch: replayFetch(await readHar(RECORDED_REDMINE.file), {
    file: RECORDED_REDMINE.file,
    scrub: { secrets: Object.values(RECORDED_REDMINE.secrets) },
  }),
  recorded: true,
  bounds: await readAcceptanceBounds(PLUGIN_DIR),
});
