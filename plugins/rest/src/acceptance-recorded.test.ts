/**
 * The connector acceptance kit on the scim manifest with no source running: every check replays
 * the committed recording `fixtures/scim-source.har`. A recording cannot refuse a credential, so
 * the kit answers a wrong token with 401 itself (`recorded`).
 */
import { fileURLToPath } from 'node:url';
import { readAcceptanceBounds, readHar, replayFetch, runAcceptance } from '@oaakit/runner/testing';
import restConnector from './index.js';
import { RECORDED_SOURCE } from './private-test-helpers/recorded-source.js';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));

await runAcceptance(restConnector, {
  config: RECORDED_SOURCE.config,
  secrets: RECORDED_SOURCE.secrets,
  fetch: replayFetch(await readHar(RECORDED_SOURCE.file), {
    file: RECORDED_SOURCE.file,
    scrub: { secrets: Object.values(RECORDED_SOURCE.secrets) },
  }),
  recorded: true,
  bounds: await readAcceptanceBounds(PLUGIN_DIR),
});
