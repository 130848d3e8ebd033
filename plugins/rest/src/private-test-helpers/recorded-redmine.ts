/**
 * The recorded Redmine of `fixtures/redmine-source.har`: the redmine manifest's check and extract
 * against a throwaway Redmine loaded with the fixture, recorded under a fixed base URL, so that the
 * acceptance kit can replay it with no Redmine installed (`acceptance-redmine-recorded.test.ts`).
 *
 * So that the file is the same on every machine and run: the fixture's timestamps are set to fixed
 * values in the database once it is loaded, the answers keep only their content type (Redmine adds
 * a request id and a runtime to each), and the entries are written in the order of their requests'
 * URLs (the manifest reads projects and groups four at a time, so answers complete in any order;
 * a replay matches requests by method and URL, not by order).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StateStore, checkConnector, runConnector } from '@oaakit/runner';
import { HarRecorder, recordingFetch } from '@oaakit/runner/testing';
import restConnector from '../index.js';
import { AUDITOR_ROLE_SQL, loadRedmineFixture } from './redmine-fixture.js';
import { sqlite, startRedmine } from '../testing/redmine-server.js';

/** The base URL the manifest is configured with; the recording sends its requests to the test Redmine. */
export const REDMINE_BASE_URL = 'https://redmine.example.test';

/** The recorded source: its file, and the config and secrets to replay it with. */
export const RECORDED_REDMINE = {
  file: fileURLToPath(new URL('../../fixtures/redmine-source.har', import.meta.url)),
  /** Pages of 2, so the recording holds paging: of users, projects and memberships. */
  config: { manifest: 'redmine', vars: { url: REDMINE_BASE_URL, page_size: 2 } },
  /** A stand-in key: the recording is made with the test Redmine's own, which is scrubbed from it. */
  secrets: { apiKey: 'redmine-recorded-api-key' },
} as const;

/** Timestamps of the fixture, fixed so that every recording of it is the same. */
const FIXED_TIMES = `UPDATE users SET created_on = '2026-01-05 09:00:00', updated_on = '2026-01-05 09:00:00',
    passwd_changed_on = CASE WHEN type = 'User' THEN '2026-01-05 09:00:00' END,
    last_login_on = CASE WHEN type = 'User' AND status = 1 THEN '2026-06-01 12:00:00' END;
  UPDATE projects SET created_on = '2026-01-06 10:00:00', updated_on = '2026-01-06 10:00:00';
  UPDATE members SET created_on = '2026-01-07 11:00:00';`;

/** A fetch sending what is asked of the fixed base URL to the test Redmine, its answers' volatile headers left out. */
function rehosted(url: string, apiKey: string): typeof globalThis.fetch {
  return async (input, init) => {
    const asked = input instanceof Request ? input.url : new URL(input).href;
    if (!asked.startsWith(REDMINE_BASE_URL)) throw new TypeError(`not under ${REDMINE_BASE_URL}: ${asked}`);
    const headers = new Headers(init?.headers);
    // The stand-in key becomes the test Redmine's; a wrong key (the kit tries one) stays wrong.
    if (headers.get('x-redmine-api-key') === RECORDED_REDMINE.secrets.apiKey)
      headers.set('x-redmine-api-key', apiKey);
    const res = await globalThis.fetch(`${url}${asked.slice(REDMINE_BASE_URL.length)}`, { ...init, headers });
    const kept = new Headers();
    const type = res.headers.get('content-type');
    if (type !== null) kept.set('content-type', type);
    return new Response(await res.arrayBuffer(), {
      status: res.status,
      statusText: res.statusText,
      headers: kept,
    });
  };
}

/** Records the manifest's check and extract against a fresh fixture Redmine; `digest` is the extract's. */
export async function recordRedmineSource(): Promise<{ recorder: HarRecorder; digest: string }> {
  const redmine = await startRedmine({ sql: AUDITOR_ROLE_SQL });
  const dir = await mkdtemp(join(tmpdir(), 'rest-redmine-source-'));
  const scrub = { secrets: [RECORDED_REDMINE.secrets.apiKey, redmine.apiKey] };
  const recorder = new HarRecorder({ scrub, stableTimes: true });
  let digest: string;
  try {
    await loadRedmineFixture(redmine);
    await sqlite(join(redmine.dir, 'redmine.sqlite3'), FIXED_TIMES);
    const options = {
      connector: restConnector,
      config: RECORDED_REDMINE.config,
      secrets: RECORDED_REDMINE.secrets,
      sourceFetch: recordingFetch(rehosted(redmine.url, redmine.apiKey), recorder),
    };
    await checkConnector(options);
    ({ digest } = await runConnector({
      ...options,
      provider: 'Redmine',
      dataSource: 'Redmine (recorded)',
      state: new StateStore(join(dir, 'state')),
      dryRun: true,
    }));
  } finally {
    await redmine.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const sorted = new HarRecorder({ scrub, stableTimes: true });
  const key = (e: (typeof recorder.entries)[number]) => `${e.request.url} ${e.request.method}`;
  for (const entry of [...recorder.entries].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)))
    sorted.add(entry);
  sorted.comment =
    "The redmine manifest's check, then its extract, against a throwaway Redmine loaded with the test " +
    `fixture (timestamps fixed), config ${JSON.stringify(RECORDED_REDMINE.config)}; entries in URL order. ` +
    'Written by OAA_WRITE_FIXTURES=1 npx vitest run plugins/rest/src/recorded-redmine.test.ts';
  return { recorder: sorted, digest };
}
