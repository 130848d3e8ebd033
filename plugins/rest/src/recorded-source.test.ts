/**
 * The committed recording `fixtures/scim-source.har` is what the scim manifest's check and extract
 * ask of the SCIM test server now, holds no token, and replays to the digest of scim-app's own
 * recording of the same server: the manifest's payload, offline. After a deliberate change to the
 * manifest or the engine, write it again with
 *
 *   OAA_WRITE_FIXTURES=1 npx vitest run plugins/rest/src/recorded-source.test.ts
 *
 * and review the diff before committing it.
 */
import { readFile } from 'node:fs/promises';
import { readHar, replayFetch } from '@oaakit/runner/testing';
import { describe, expect, it } from 'vitest';
import restConnector from './index.js';
import { RECORDED_SOURCE, recordScimSource } from './private-test-helpers/recorded-source.js';
import { dryRun } from './private-test-helpers/scim.js';

describe('the recorded SCIM source', () => {
  it('is what recording the SCIM test server gives now (OAA_WRITE_FIXTURES=1 writes it)', async () => {
    const { recorder, digest } = await recordScimSource();
    if (process.env['OAA_WRITE_FIXTURES'] === '1') await recorder.write(RECORDED_SOURCE.file);
    const committed = await readHar(RECORDED_SOURCE.file);
    expect(
      recorder.entries,
      'fixtures/scim-source.har is out of date: OAA_WRITE_FIXTURES=1 rewrites it',
    ).toEqual(committed.log.entries);
    const text = await readFile(RECORDED_SOURCE.file, 'utf8');
    expect(text).not.toContain(RECORDED_SOURCE.secrets.token);
    // Replayed with the server gone, and another token: the same payload.
    const replayed = await dryRun(
      restConnector,
      RECORDED_SOURCE.config,
      { token: 'any-token' },
      {
        sourceFetch: replayFetch(committed, {
          file: RECORDED_SOURCE.file,
          scrub: { secrets: ['any-token'] },
        }),
      },
    );
    expect(replayed.result.digest).toBe(digest);
    expect(replayed.result.counts).toMatchObject({
      local_users: 4,
      local_groups: 3,
      local_roles: 2,
      permissions: 2,
    });
  });
});
