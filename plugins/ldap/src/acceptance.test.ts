/** The connector acceptance kit against the fixture directory on a real OpenLDAP server. */
import { readFile } from 'node:fs/promises';
import { runAcceptance } from '@oaakit/runner/testing';
import { afterAll, beforeAll } from 'vitest';
import ldapConnector from './index.js';
import { loadFixtureDirectory, type FixtureDirectory } from './private-test-helpers/fixture-directory.js';
import { startSlapd, type SlapdServer } from './private-test-helpers/slapd-server.js';

let server: SlapdServer;
let fixtures: FixtureDirectory;

beforeAll(async () => {
  server = await startSlapd();
  fixtures = await loadFixtureDirectory(server);
});
afterAll(async () => {
  await server?.stop();
});

// The bound `oaa plugins test` reads from package.json.
const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  oaakit: { acceptance: { peakRssMb: number } };
};

await runAcceptance(ldapConnector, () => ({
  config: { url: server.url, bindDn: fixtures.readerDn },
  secrets: { bindPassword: fixtures.readerPassword },
  bounds: manifest.oaakit.acceptance,
  print: true,
}));
