/**
 * The connector acceptance kit on scim-app with no source running: every check replays the
 * committed recording `fixtures/scim-source.har` (the connector's check and extract against the
 * SCIM test server). A recording cannot refuse a credential, so the kit answers a wrong token
 * with 401 itself (`recorded`); each other check gets what the recording holds, and a request it
 * lacks fails the check that made it.
 */
import { fileURLToPath } from 'node:url';
import { readAcceptanceBounds, readHar, replayFetch, runAcceptance } from '@oaakit/runner/testing';
import connector from './index.js';
import { RECORDED_SOURCE } from './private-test-helpers/recorded-source.js';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));

await runAcceptance(connector, {
  config: RECORDED_SOURCE.config,
  secrets: RECORDED_SOURCE.secrets,
  fetch: replayFetch(await readHar(RECORDED_SOURCE.file), {
    file: RECORDED_SOURCE.file,
    scrub: { secrets: Object.values(RECORDED_SOURCE.secrets) },
  }),
  recorded: true,
  bounds: await readAcceptanceBounds(PLUGIN_DIR),
});
