/**
 * The connector acceptance kit on csv-hris, as `oaa plugins test` runs it: one test per check,
 * over the good export of the fixtures, with the memory bound the package.json declares. The
 * checks of secrets and HTTP sources are skipped (the connector has neither), saying so.
 */
import { fileURLToPath } from 'node:url';
import { readAcceptanceBounds, runAcceptance } from '@oaakit/runner/testing';
import connector from './index.js';
import { fixture } from './private-test-helpers/context.js';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));

await runAcceptance(connector, {
  config: { files: fixture('employees-good.csv') },
  bounds: await readAcceptanceBounds(PLUGIN_DIR),
});
