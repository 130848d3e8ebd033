/**
 * The recorded SCIM source of `fixtures/scim-source.har`: the scim manifest's check and extract
 * against the SCIM test server seeded with scim-app's `directory()`, recorded under a fixed base
 * URL so that the file is the same on every machine. The acceptance kit replays it
 * (`acceptance-recorded.test.ts`, and `npm run test:acceptance` with `acceptance.config.yaml`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StateStore, checkConnector, runConnector } from '@oaakit/runner';
import { HarRecorder, recordingFetch } from '@oaakit/runner/testing';
import restConnector from '../index.js';
import { directory, startScimServer } from './scim.js';

/** The base URL the manifest is configured with; the recording sends its requests to the test server. */
export const BASE_URL = 'https://scim.example.test/scim/v2';

/** The recorded source: its file, and the config and secrets to replay it with. */
export const RECORDED_SOURCE = {
  file: fileURLToPath(new URL('../../fixtures/scim-source.har', import.meta.url)),
  /** Pages of 2, so the recording holds paging: two pages of users, two of groups. */
  config: {
    manifest: 'scim',
    vars: { url: BASE_URL, application_name: 'Wiki', application_type: 'WikiApp', page_size: 2 },
  },
  /** The token the recording was made with; scrubbed from the file, so a replay takes any token. */
  secrets: { token: 'scim-fixture-token-2c7e41' },
} as const;

/** A fetch sending what is asked of {@link BASE_URL} to the test server at `baseUrl`. */
function rehosted(baseUrl: string): typeof globalThis.fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : new URL(input).href;
    if (!url.startsWith(BASE_URL)) throw new TypeError(`not under ${BASE_URL}: ${url}`);
    return globalThis.fetch(`${baseUrl}${url.slice(BASE_URL.length)}`, init);
  };
}

/** Records the manifest's check and extract against a fresh SCIM test server; `digest` is the extract's. */
export async function recordScimSource(): Promise<{ recorder: HarRecorder; digest: string }> {
  const server = await startScimServer({
    ...directory(),
    auth: { type: 'bearer', token: RECORDED_SOURCE.secrets.token },
  });
  const dir = await mkdtemp(join(tmpdir(), 'rest-scim-source-'));
  const recorder = new HarRecorder({
    scrub: { secrets: Object.values(RECORDED_SOURCE.secrets) },
    stableTimes: true,
  });
  let digest: string;
  try {
    const options = {
      connector: restConnector,
      config: RECORDED_SOURCE.config,
      secrets: RECORDED_SOURCE.secrets,
      sourceFetch: recordingFetch(rehosted(server.baseUrl), recorder),
    };
    await checkConnector(options);
    ({ digest } = await runConnector({
      ...options,
      provider: 'Wiki',
      dataSource: 'Wiki (SCIM manifest)',
      state: new StateStore(join(dir, 'state')),
      dryRun: true,
    }));
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  recorder.comment =
    "The scim manifest's check, then its extract, against the SCIM test server of scim-app's tests seeded " +
    `with its directory() (4 users, 3 groups), config ${JSON.stringify(RECORDED_SOURCE.config)}. ` +
    'Written by OAA_WRITE_FIXTURES=1 npx vitest run plugins/rest/src/recorded-source.test.ts';
  return { recorder, digest };
}
