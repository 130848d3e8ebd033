/**
 * The recorded SCIM source of `fixtures/scim-source.har`: scim-app's check and extract against the
 * SCIM test server seeded with `directory()`, recorded under a fixed base URL so that the file is the
 * same on every machine. Tests (and the connector's acceptance run) replay it with
 * `replayFetch(await readHar(RECORDED_SOURCE.file))` and the config below.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarRecorder, recordingFetch } from '@oaakit/runner/testing';
import { StateStore, checkConnector, runConnector } from '@oaakit/runner';
import scimAppConnector from '../index.js';
import type { ScimAppConfigInput } from '../config.js';
import { startScimServer } from './scim-server.js';
import { directory } from './seed.js';

/** The base URL the connector is configured with; the recording sends its requests to the test server. */
const BASE_URL = 'https://scim.example.test/scim/v2';

/** The recorded source: its file, and the config and secrets scim-app replays it with. */
export const RECORDED_SOURCE = {
  file: fileURLToPath(new URL('../../fixtures/scim-source.har', import.meta.url)),
  /** Pages of 2, so the recording holds paging: two pages of users, two of groups. */
  config: {
    baseUrl: BASE_URL,
    applicationName: 'Wiki',
    applicationType: 'WikiApp',
    auth: { type: 'bearer' },
    pageSize: 2,
  } satisfies ScimAppConfigInput,
  /**
   * The token the recording was made with. It is scrubbed from the file (the `Authorization` header
   * is not matched), so a replay needs a token, any token.
   */
  secrets: { credential: 'scim-fixture-token-6b2d0c' },
} as const;

/**
 * A fetch sending what the connector asks of {@link BASE_URL} to the test server at `baseUrl`; the
 * answer is the server's as it is (its bodies hold only relative locations).
 */
function rehosted(baseUrl: string): typeof globalThis.fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : new URL(input).href;
    if (!url.startsWith(BASE_URL)) throw new TypeError(`not under ${BASE_URL}: ${url}`);
    return globalThis.fetch(`${baseUrl}${url.slice(BASE_URL.length)}`, init);
  };
}

/**
 * Records scim-app's check and extract against a fresh SCIM test server, as the committed fixture
 * holds them (stable times, the token scrubbed); `digest` is the payload's digest of that extract.
 */
export async function recordScimSource(): Promise<{ recorder: HarRecorder; digest: string }> {
  const server = await startScimServer({
    ...directory(),
    auth: { type: 'bearer', token: RECORDED_SOURCE.secrets.credential },
  });
  const dir = await mkdtemp(join(tmpdir(), 'scim-source-'));
  const recorder = new HarRecorder({
    scrub: { secrets: Object.values(RECORDED_SOURCE.secrets) },
    stableTimes: true,
  });
  let digest: string;
  try {
    const options = {
      connector: scimAppConnector,
      config: RECORDED_SOURCE.config,
      secrets: RECORDED_SOURCE.secrets,
      sourceFetch: recordingFetch(rehosted(server.baseUrl), recorder),
    };
    await checkConnector(options);
    ({ digest } = await runConnector({
      ...options,
      provider: 'Wiki',
      dataSource: 'Wiki (SCIM)',
      state: new StateStore(join(dir, 'state')),
      dryRun: true,
    }));
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  recorder.comment =
    "scim-app's check, then its extract, against the SCIM test server of scim-app's tests seeded with " +
    `its directory() (4 users, 3 groups), config ${JSON.stringify(RECORDED_SOURCE.config)}. ` +
    'Written by OAA_WRITE_FIXTURES=1 npx vitest run plugins/scim-app/src/replay.test.ts';
  return { recorder, digest };
}
