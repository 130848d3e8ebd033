/**
 * `oaa plugins test plugins/rest` on the redmine manifest, run as the built binary from the
 * repository root: the acceptance kit against a throwaway Redmine loaded with the test fixture (the
 * API key handed over as `env:REDMINE_API_KEY`), and offline, from the committed recording with the
 * plugin's own `acceptance.redmine.config.yaml` (`npm run test:acceptance:redmine`).
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AcceptanceReport } from '@oaakit/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDITOR_ROLE_SQL,
  loadRedmineFixture,
} from '../../../../plugins/rest/src/private-test-helpers/redmine-fixture.js';
import { startRedmine, type RedmineServer } from '../../../../plugins/rest/src/testing/index.js';
import { EXIT } from '../exit-codes.js';
import { CLI_ROOT, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

const REPO = resolve(CLI_ROOT, '../..');

let redmine: RedmineServer;
let work: { dir: string; remove: () => Promise<void> };
let config: string;

beforeAll(async () => {
  redmine = await startRedmine({ sql: AUDITOR_ROLE_SQL });
  await loadRedmineFixture(redmine);
  work = await tempDir('oaa-e2e-plugins-test-redmine-');
  config = join(work.dir, 'acceptance.json');
  const connector = {
    id: 'redmine',
    plugin: join(REPO, 'plugins/rest'),
    provider: 'Redmine',
    dataSource: 'Redmine fixture',
    config: { manifest: 'redmine', vars: { url: redmine.url, page_size: 3 } },
    secrets: { apiKey: 'env:REDMINE_API_KEY' },
  };
  await writeFile(config, JSON.stringify({ connectors: [connector] }));
});

afterAll(async () => {
  await redmine?.stop();
  await work?.remove();
});

const result = (c: AcceptanceReport['checks'][number]) => (!c.ok ? 'FAIL' : c.skipped ? 'SKIP' : 'PASS');
/** A manifest keeps no state between runs: incremental is skipped with its reason; the rest pass. */
const EXPECTED = {
  definition: 'PASS',
  check: 'PASS',
  extract: 'PASS',
  idempotent: 'PASS',
  'streams-once': 'PASS',
  cancels: 'PASS',
  'no-secret-leaks': 'PASS',
  'source-faults': 'PASS',
  incremental: 'SKIP',
  resources: 'PASS',
};

describe('oaa plugins test plugins/rest with the redmine manifest', () => {
  it('passes every applicable check against the fixture Redmine, and the API key appears nowhere', async () => {
    const res = await oaa(['plugins', 'test', 'plugins/rest', '--config', config, '--json'], {
      cwd: REPO,
      env: { REDMINE_API_KEY: redmine.apiKey },
    });
    expect(res.code, res.stderr).toBe(EXIT.OK);
    const report = json<AcceptanceReport>(res);
    expect(Object.fromEntries(report.checks.map((c) => [c.name, result(c)]))).toEqual(EXPECTED);
    expect(report.checks.find((c) => c.name === 'extract')?.details).toMatchObject({
      counts: expect.objectContaining({ local_users: 9, local_groups: 2, local_roles: 5, resources: 7 }),
    });
    expect(res.stdout + res.stderr).not.toContain(redmine.apiKey);
  });

  it('passes them offline from the committed recording, with the acceptance config of the plugin', async () => {
    const res = await oaa(
      [
        'plugins',
        'test',
        '.',
        '--config',
        'acceptance.redmine.config.yaml',
        '--replay',
        'fixtures/redmine-source.har',
        '--json',
      ],
      { cwd: join(REPO, 'plugins/rest'), env: { REDMINE_API_KEY: 'any-key' } },
    );
    expect(res.code, res.stderr).toBe(EXIT.OK);
    const report = json<AcceptanceReport>(res);
    expect(Object.fromEntries(report.checks.map((c) => [c.name, result(c)]))).toEqual(EXPECTED);
  });
});
