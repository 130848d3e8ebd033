/** The connector acceptance kit against the fixture cluster on a real PostgreSQL server. */
import { readFile } from 'node:fs/promises';
import { runAcceptance } from '@oaakit/runner/testing';
import { afterAll, beforeAll } from 'vitest';
import postgresConnector from './index.js';
import { loadFixtures, READER_ROLE, type LoadedFixtures } from './private-test-helpers/fixtures.js';
import { createTemplate, startPgServer, type PgServer, type PgTemplate } from './testing/index.js';

let template: PgTemplate;
let server: PgServer;
let fixtures: LoadedFixtures;

beforeAll(async () => {
  template = await createTemplate();
  server = await startPgServer(template);
  fixtures = await loadFixtures(server);
});
afterAll(async () => {
  await server?.stop();
  await template?.remove();
});

// The bound `oaa plugins test` reads from package.json.
const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  oaakit: { acceptance: { peakRssMb: number } };
};

await runAcceptance(postgresConnector, () => ({
  config: {
    host: server.host,
    port: server.port,
    user: READER_ROLE,
    databases: fixtures.databases,
    ssl: 'disable',
  },
  secrets: { password: fixtures.passwords[READER_ROLE]! },
  bounds: manifest.oaakit.acceptance,
  print: true,
}));
