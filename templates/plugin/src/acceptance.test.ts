/**
 * oaakit's connector acceptance kit on this connector (`runAcceptance`): one test per check, with
 * the connector reading the fixture over HTTP from a local server that checks the token, as it reads
 * the real export. A check that does not apply is skipped with the reason.
 *
 * `npm run test:acceptance` runs the same checks from the command line (`oaa plugins test`), on
 * the recording `fixtures/source.har` of that server instead of the server; the last test here keeps
 * the recording what the server answers. Both take the memory bound of the resources check from
 * package.json (`"oaakit": { "acceptance": { "peakRssMb": N } }`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StateStore, checkConnector, runConnector } from '@oaakit/runner';
import { HarRecorder, readHar, recordingFetch, runAcceptance } from '@oaakit/runner/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import connector from './index.js';
import { serveSource, token } from './private-test-helpers/harness.js';
import type { SourceServer } from './private-test-helpers/harness.js';

const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  oaakit: { acceptance: { peakRssMb: number } };
};

let source: SourceServer;
beforeAll(async () => {
  source = await serveSource();
});
afterAll(async () => {
  await source.close();
});

await runAcceptance(connector, () => ({
  config: { source: source.url },
  secrets: { token },
  bounds: manifest.oaakit.acceptance,
}));

/** The export's URL in acceptance.config.yaml: the recording answers it, the network never does. */
const RECORDED_URL = 'https://source.example.test/export.json';
const RECORDING = fileURLToPath(new URL('../fixtures/source.har', import.meta.url));

it('holds in fixtures/source.har what the source answers check and extract now (OAA_WRITE_FIXTURES=1 writes it again)', async () => {
  const recorder = new HarRecorder({ scrub: { secrets: [token] }, stableTimes: true });
  // Recorded under RECORDED_URL, answered by the local server.
  const sourceFetch = recordingFetch((_url, init) => fetch(source.url, init), recorder);
  const options = { connector, config: { source: RECORDED_URL }, secrets: { token }, sourceFetch };
  const stateDir = await mkdtemp(join(tmpdir(), '__CONNECTOR_ID__-recording-'));
  try {
    await checkConnector(options);
    const provider = '__DISPLAY_NAME__';
    await runConnector({
      ...options,
      provider,
      dataSource: provider,
      state: new StateStore(stateDir),
      dryRun: true,
    });
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
  if (process.env['OAA_WRITE_FIXTURES'] === '1') await recorder.write(RECORDING);
  expect(
    recorder.entries,
    'fixtures/source.har is out of date: OAA_WRITE_FIXTURES=1 npm test writes it',
  ).toEqual((await readHar(RECORDING)).log.entries);
});
