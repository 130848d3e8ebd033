/**
 * `oaa plugins test`, run as the built binary from the repository root: the acceptance kit on
 * scim-app against the real SCIM test server (started here on port 0, its bearer token handed
 * over as the secret reference `env:SCIM_TOKEN`), from the committed recording with no server,
 * and on a broken fixture plugin, whose failed check gives the acceptance exit code.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ACCEPTANCE_CHECKS } from '@oaakit/runner';
import type { AcceptanceReport } from '@oaakit/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDED_SOURCE } from '../../../../plugins/scim-app/src/private-test-helpers/recorded-source.js';
import { startScimServer } from '../../../../plugins/scim-app/src/private-test-helpers/scim-server.js';
import type { ScimServer } from '../../../../plugins/scim-app/src/private-test-helpers/scim-server.js';
import { directory } from '../../../../plugins/scim-app/src/private-test-helpers/seed.js';
import { EXIT } from '../exit-codes.js';
import type { ErrorJson } from '../output/render-error.js';
import { CLI_ROOT, fixture, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaResult } from '../private-test-helpers/run-oaa.js';

const REPO = resolve(CLI_ROOT, '../..');
const PLUGIN = join(REPO, 'plugins/scim-app');
const TOKEN = 'scim-plugins-test-token-2f8a61';
const CHECKS: readonly string[] = ACCEPTANCE_CHECKS;

let scim: ScimServer;
let work: { dir: string; remove: () => Promise<void> };
/** Config files: scim-app against the server, against the recording, both at once; the broken plugin. */
let live: string;
let recorded: string;
let both: string;
let broken: string;

function wiki(id: string, config: Record<string, unknown>): Record<string, unknown> {
  return {
    id,
    plugin: PLUGIN,
    provider: 'Wiki',
    dataSource: `Wiki (${id})`,
    config,
    secrets: { credential: 'env:SCIM_TOKEN' },
  };
}

async function configFile(name: string, connectors: Record<string, unknown>[]): Promise<string> {
  const path = join(work.dir, name);
  await writeFile(path, JSON.stringify({ connectors }));
  return path;
}

/** `oaa plugins test ...args` from the repository root, the token in the environment. */
function pluginsTest(args: string[]): Promise<OaaResult> {
  return oaa(['plugins', 'test', ...args], { cwd: REPO, env: { SCIM_TOKEN: TOKEN } });
}

/** The rows of the table: check name to its result. */
function rows(stdout: string): Record<string, string> {
  const names = new Set(CHECKS);
  return Object.fromEntries(
    stdout
      .split('\n')
      .map((line) => /^(\S+) +(PASS|FAIL|SKIP) /.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && names.has(m[1]!))
      .map((m) => [m[1]!, m[2]!]),
  );
}

beforeAll(async () => {
  scim = await startScimServer({ ...directory(), auth: { type: 'bearer', token: TOKEN } });
  work = await tempDir('oaa-e2e-plugins-test-');
  const liveConfig = {
    baseUrl: scim.baseUrl,
    applicationName: 'Wiki',
    applicationType: 'WikiApp',
    auth: { type: 'bearer' },
    pageSize: 2,
  };
  live = await configFile('live.json', [wiki('wiki', liveConfig)]);
  // The recording's base URL is on a .test host, which never resolves: no server answers it.
  recorded = await configFile('recorded.json', [wiki('wiki-recorded', RECORDED_SOURCE.config)]);
  both = await configFile('both.json', [
    wiki('wiki', liveConfig),
    wiki('wiki-recorded', RECORDED_SOURCE.config),
  ]);
  broken = await configFile('broken.json', [
    {
      id: 'roster',
      plugin: fixture('shuffled-roster'),
      provider: 'Roster',
      dataSource: 'Roster',
      config: {},
    },
  ]);
});

afterAll(async () => {
  await scim.close();
  await work.remove();
});

describe('oaa plugins test', () => {
  it('runs the ten checks on scim-app against the SCIM server: a table of them, progress on stderr, exit 0', async () => {
    const res = await pluginsTest(['plugins/scim-app', '--config', live]);
    expect(res.code, res.stderr).toBe(EXIT.OK);
    expect(res.stdout).toMatch(/^connector scim-app 0\.1\.0 \(application\)$/m);
    expect(res.stdout).toMatch(/^CHECK +RESULT +WHY +TIME$/m);
    expect(rows(res.stdout)).toEqual({
      definition: 'PASS',
      check: 'PASS',
      extract: 'PASS',
      idempotent: 'PASS',
      'streams-once': 'SKIP',
      cancels: 'PASS',
      'no-secret-leaks': 'PASS',
      'source-faults': 'PASS',
      incremental: 'SKIP',
      resources: 'PASS',
    });
    expect(res.stdout).toMatch(
      /^resources +PASS +RSS grew by [\d.]+ MB during extract and read \(bound 128 MB\)/m,
    );
    expect(res.stdout).toMatch(/^ {2}local_users: 4$/m);
    expect(res.stdout).toMatch(/all applicable checks passed \(8 passed, 2 skipped\)\n$/);
    // One line per check as it finishes, the secret search last.
    const progress = res.stderr.split('\n').filter((l) => l.startsWith('  '));
    expect(progress.map((l) => l.trim().split(':')[0])).toEqual([
      ...CHECKS.filter((c) => c !== 'no-secret-leaks'),
      'no-secret-leaks',
    ]);
    expect(res.stderr).toContain('Acceptance checks of connector wiki (plugin plugins/scim-app):');
    expect(res.stdout + res.stderr).not.toContain(TOKEN);
  });

  it('prints the report as JSON with --json, every check ok, nothing on stderr', async () => {
    const res = await pluginsTest(['plugins/scim-app', '--config', live, '--json']);
    expect(res.code, res.stderr).toBe(EXIT.OK);
    expect(res.stderr).toBe('');
    const report = json<AcceptanceReport>(res);
    expect(report.connector).toEqual({ id: 'scim-app', version: '0.1.0', template: 'application' });
    expect(report.checks.map((c) => c.name)).toEqual(CHECKS);
    for (const check of report.checks) {
      expect(check, check.name).toMatchObject({
        ok: true,
        reason: expect.any(String),
        ms: expect.any(Number),
      });
    }
    expect(report.checks.find((c) => c.name === 'extract')?.details).toMatchObject({
      counts: { local_users: 4, local_groups: 3 },
    });
  });

  it('runs only the checks given with --only', async () => {
    const res = await pluginsTest(['plugins/scim-app', '--config', live, '--only', 'extract', 'idempotent']);
    expect(res.code, res.stderr).toBe(EXIT.OK);
    expect(rows(res.stdout)).toEqual({ extract: 'PASS', idempotent: 'PASS' });
    expect(res.stdout).toMatch(/all applicable checks passed \(2 passed, 0 skipped\)/);
  });

  it('refuses an --only value that is not a check, naming the checks, before running any', async () => {
    const res = await pluginsTest(['plugins/scim-app', '--config', live, '--only', 'extract,leaks']);
    expect(res.code).toBe(EXIT.USAGE);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`--only: "leaks" is not a check; the checks are ${CHECKS.join(', ')}`);
  });

  it('passes the checks from the committed recording with --replay, no server answering', async () => {
    const requests = scim.requests.length;
    const res = await pluginsTest([
      'plugins/scim-app',
      '--config',
      recorded,
      '--replay',
      'plugins/scim-app/fixtures/scim-source.har',
    ]);
    expect(res.code, res.stderr).toBe(EXIT.OK);
    expect(rows(res.stdout)).toMatchObject({ check: 'PASS', extract: 'PASS', 'source-faults': 'PASS' });
    expect(Object.values(rows(res.stdout))).not.toContain('FAIL');
    expect(scim.requests.length).toBe(requests);
  });

  it('records the source requests of the checks with --record; --replay of that file passes them, asking the server nothing', async () => {
    const har = join(work.dir, 'wiki.har');
    const recording = await pluginsTest(['plugins/scim-app', '--config', live, '--record', har]);
    expect(recording.code, recording.stderr).toBe(EXIT.OK);
    expect(recording.stderr).toContain(`Recorded the source requests of the checks in ${har}.`);
    const requests = scim.requests.length;
    const replay = await pluginsTest(['plugins/scim-app', '--config', live, '--replay', har, '--json']);
    expect(replay.code, replay.stderr).toBe(EXIT.OK);
    expect(json<AcceptanceReport>(replay).checks.every((c) => c.ok)).toBe(true);
    expect(scim.requests.length).toBe(requests);
  });

  it('asks for --connector when several connectors of the config run the plugin, listing them', async () => {
    const res = await pluginsTest(['plugins/scim-app', '--config', both, '--only', 'definition']);
    expect(res.code).toBe(EXIT.USAGE);
    expect(res.stderr).toContain(
      `2 connectors of ${both} run the plugin in plugins/scim-app: wiki, wiki-recorded`,
    );
    expect(res.stderr).toContain('pick one with --connector ID');
    const picked = await pluginsTest([
      'plugins/scim-app',
      '--config',
      both,
      '--connector',
      'wiki',
      '--only',
      'definition',
    ]);
    expect(picked.code, picked.stderr).toBe(EXIT.OK);
  });

  it('fails a broken connector with the acceptance exit code, FAIL on the check it breaks', async () => {
    const res = await pluginsTest([fixture('shuffled-roster'), '--config', broken]);
    expect(res.code).toBe(EXIT.ACCEPTANCE);
    expect(rows(res.stdout)).toEqual({
      definition: 'PASS',
      check: 'SKIP',
      extract: 'PASS',
      idempotent: 'FAIL',
      'streams-once': 'SKIP',
      cancels: 'PASS',
      'no-secret-leaks': 'SKIP',
      'source-faults': 'SKIP',
      incremental: 'SKIP',
      resources: 'PASS',
    });
    expect(res.stdout).toMatch(/^idempotent +FAIL +two extracts of the unchanged source differ/m);
    expect(res.stdout).toMatch(/1 check failed \(4 passed, 5 skipped\)\n$/);
    expect(res.stderr).toContain('Error: 1 of 10 acceptance checks failed: idempotent');

    const asJson = await pluginsTest([fixture('shuffled-roster'), '--config', broken, '--json']);
    expect(asJson.code).toBe(EXIT.ACCEPTANCE);
    const report = json<AcceptanceReport>(asJson);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['idempotent']);
  });

  it('says in its help what each check is', async () => {
    const res = await oaa(['plugins', 'test', '--help']);
    expect(res.code).toBe(EXIT.OK);
    for (const name of CHECKS) expect(res.stdout).toMatch(new RegExp(`^ +${name}: `, 'm'));
  });

  it('names the connectors of the config when none runs the plugin', async () => {
    const res = await pluginsTest(['plugins/scim-app', '--config', broken, '--json']);
    expect(res.code).toBe(EXIT.CONFIG);
    expect(json<{ error: ErrorJson }>(res).error).toMatchObject({
      code: 'CONNECTOR_NOT_FOUND',
      message: `no connector of ${broken} runs the plugin in plugins/scim-app`,
      hints: expect.arrayContaining([`configured connectors: roster (plugin ${fixture('shuffled-roster')})`]),
    });
  });
});
