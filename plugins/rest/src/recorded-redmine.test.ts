/**
 * The committed recording `fixtures/redmine-source.har` is what the redmine manifest's check and
 * extract ask of the fixture Redmine now, holds no API key, and replays to the same payload with
 * Redmine gone. After a deliberate change to the manifest, the engine or the fixture, write it
 * again with
 *
 *   OAA_WRITE_FIXTURES=1 npx vitest run plugins/rest/src/recorded-redmine.test.ts
 *
 * and review the diff before committing it.
 */
import { readFile } from 'node:fs/promises';
import { readHar, replayFetch } from '@oaakit/runner/testing';
import { describe, expect, it } from 'vitest';
import restConnector from './index.js';
import { RECORDED_REDMINE, recordRedmineSource } from './private-test-helpers/recorded-redmine.js';
import { dryRun } from './private-test-helpers/scim.js';

describe('the recorded Redmine', () => {
  it('is what recording the fixture Redmine gives now (OAA_WRITE_FIXTURES=1 writes it)', async () => {
    const { recorder, digest } = await recordRedmineSource();
    if (process.env['OAA_WRITE_FIXTURES'] === '1') await recorder.write(RECORDED_REDMINE.file);
    const committed = await readHar(RECORDED_REDMINE.file);
    expect(
      recorder.entries,
      'fixtures/redmine-source.har is out of date: OAA_WRITE_FIXTURES=1 rewrites it',
    ).toEqual(committed.log.entries);
    const text = await readFile(RECORDED_REDMINE.file, 'utf8');
    expect(text).not.toContain(RECORDED_REDMINE.secrets.apiKey);
    expect(text).not.toMatch(/"api_key"/);
    // Replayed with Redmine gone, and another key: the same payload.
    const replayed = await dryRun(
      restConnector,
      RECORDED_REDMINE.config,
      { apiKey: 'any-key' },
      {
        sourceFetch: replayFetch(committed, { file: RECORDED_REDMINE.file, scrub: { secrets: ['any-key'] } }),
      },
    );
    expect(replayed.result.digest).toBe(digest);
    expect(replayed.result.counts).toMatchObject({
      local_users: 9,
      local_groups: 2,
      local_roles: 5,
      resources: 7,
    });
  });
});
