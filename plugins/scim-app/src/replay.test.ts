/**
 * Recorded sources with scim-app. A run against the real SCIM test server is recorded (`record` of a
 * configured run), the server is stopped, and the run is replayed from the file to the same payload
 * digest; the file holds no credential. The committed fixture `fixtures/scim-source.har` (which
 * other tests replay) must be what recording the test server gives now: after a deliberate change
 * to the connector, its seed or the recorder, write it again with
 *
 *   OAA_WRITE_FIXTURES=1 npx vitest run plugins/scim-app/src/replay.test.ts
 *
 * and review the diff before committing it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OaaError } from '@oaakit/core';
import { StateStore, loadConfig, runConfiguredConnector, runConnector } from '@oaakit/runner';
import { readHar, replayFetch } from '@oaakit/runner/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import scimAppConnector from './index.js';
import { RECORDED_SOURCE, recordScimSource } from './private-test-helpers/recorded-source.js';
import { startScimServer } from './private-test-helpers/scim-server.js';
import type { ServerAuth } from './private-test-helpers/scim-server.js';
import { directory } from './private-test-helpers/seed.js';

/** The plugin's package directory, as a config file names a plugin by path. */
const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scim-replay-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every form of `secret` a file could leak it in. */
function forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, encodeURIComponent(secret), bytes.toString('base64'), bytes.toString('base64url')];
}

const cases: {
  name: string;
  auth: ServerAuth;
  config: Record<string, unknown>;
  secret: string;
  leaks: string[];
}[] = [
  {
    name: 'bearer token',
    auth: { type: 'bearer', token: 'scim-live-token-41f9e2' },
    config: { type: 'bearer' },
    secret: 'scim-live-token-41f9e2',
    leaks: [],
  },
  {
    name: 'basic auth',
    auth: { type: 'basic', username: 'scim-reader', password: 'pa55:w0rd/live' },
    config: { type: 'basic', username: 'scim-reader' },
    secret: 'pa55:w0rd/live',
    leaks: [Buffer.from('scim-reader:pa55:w0rd/live').toString('base64')],
  },
];

describe('recorded SCIM sources', () => {
  it.each(cases)(
    'records a run against the SCIM server without the credential, and replays it to the same digest with the server stopped ($name)',
    async ({ auth, config, secret, leaks }) => {
      const server = await startScimServer({ ...directory(), auth });
      const connectors = [
        {
          id: 'wiki',
          plugin: PLUGIN_DIR,
          provider: 'Wiki',
          dataSource: 'Wiki (SCIM)',
          config: {
            baseUrl: server.baseUrl,
            applicationName: 'Wiki',
            applicationType: 'WikiApp',
            auth: config,
            pageSize: 3,
          },
          secrets: { credential: 'env:SCIM_CREDENTIAL' },
        },
      ];
      await writeFile(join(dir, 'oaa.config.json'), JSON.stringify({ connectors }));
      const loaded = await loadConfig({ cwd: dir });
      const har = join(dir, 'wiki.har');
      const options = {
        loaded,
        connectorId: 'wiki',
        dryRun: true,
        secretSources: { env: { SCIM_CREDENTIAL: secret } },
      };
      let recorded;
      try {
        recorded = await runConfiguredConnector({ ...options, record: har });
      } finally {
        await server.close();
      }
      // Pages of 3: two of users, one of groups.
      expect(server.requests).toHaveLength(3);

      const bytes = await readFile(har);
      for (const form of [...forms(secret), ...leaks]) expect(bytes.includes(form), form).toBe(false);
      const { log } = await readHar(har);
      expect(log.entries).toHaveLength(3);
      for (const entry of log.entries)
        expect(entry.request.headers.find((h) => h.name === 'authorization')?.value).toBe('[scrubbed]');

      const replayed = await runConfiguredConnector({ ...options, replay: har });
      expect(replayed.counts).toEqual(recorded.counts);
      expect(replayed.digest).toBe(recorded.digest);
    },
  );

  it('has the committed fixture: what recording the SCIM test server gives now, replayed to the same digest', async () => {
    const { recorder, digest } = await recordScimSource();
    if (process.env.OAA_WRITE_FIXTURES === '1') await recorder.write(RECORDED_SOURCE.file);
    const now = recorder.toHar();
    const committed = await readHar(RECORDED_SOURCE.file);
    // The runner's version is the recorder's, not the recording's.
    expect({ log: { ...committed.log, creator: now.log.creator } }).toEqual(now);
    const bytes = await readFile(RECORDED_SOURCE.file);
    for (const form of forms(RECORDED_SOURCE.secrets.credential))
      expect(bytes.includes(form), form).toBe(false);

    const replayed = await runConnector({
      connector: scimAppConnector,
      config: RECORDED_SOURCE.config,
      secrets: { credential: 'any-token-will-do' },
      provider: 'Wiki',
      dataSource: 'Wiki (SCIM)',
      state: new StateStore(join(dir, 'state')),
      dryRun: true,
      sourceFetch: replayFetch(committed, { file: RECORDED_SOURCE.file }),
    });
    expect(replayed.digest).toBe(digest);
    expect(replayed.counts.local_users).toBe(4);
  });

  it('fails a replay that asks what the recording lacks, naming the request and the file, not retryable', async () => {
    const error = await runConnector({
      connector: scimAppConnector,
      // Pages of 3: the recording holds pages of 2.
      config: { ...RECORDED_SOURCE.config, pageSize: 3 },
      secrets: RECORDED_SOURCE.secrets,
      provider: 'Wiki',
      dataSource: 'Wiki (SCIM)',
      state: new StateStore(join(dir, 'state')),
      dryRun: true,
      sourceFetch: replayFetch(await readHar(RECORDED_SOURCE.file), { file: RECORDED_SOURCE.file }),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'EXTRACT_FAILED', retryable: false });
    expect((error as Error).message).toContain(
      `no recorded answer for GET https://scim.example.test/scim/v2/Users?startIndex=1&count=3 in ${RECORDED_SOURCE.file}`,
    );
    expect((error as OaaError).hints).toEqual(
      expect.arrayContaining([expect.stringContaining('record again')]),
    );
  });
});
