/**
 * What `oaa` shows and how it exits when the service refuses the input or the key. Every
 * field violation is printed as `field: description` and is at the top of `--json` with the request
 * id; a refused payload or command-line value exits 2, a refused config value or API key exits 5.
 * The built binary against an emulator on port 0.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '@oaakit/client';
import type { EmulatorAdmin } from '@oaakit/emulator/testing';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import type { ErrorJson } from '../output/render-error.js';
import { fixture, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaResult } from '../private-test-helpers/run-oaa.js';

let adminKey: string;
let memberKey: string;
let emulator: TestEmulator;
let admin: EmulatorAdmin;
let work: { dir: string; remove: () => Promise<void> };

/** Each test starts the binary several times, a few seconds each on a loaded 2-core machine. */
const CLI_TIMEOUT = 120_000;

/** The provider-name rule of the service, as the emulator words it. */
const NAME_RULE = /^must be letters, digits, spaces or /;

function oaaWith(key: string, args: string[]): Promise<OaaResult> {
  return oaa(args, { cwd: work.dir, env: { OAA_URL: emulator.url, OAA_API_KEY: key } });
}

async function runConfig(
  entry: Record<string, unknown>,
  args: string[] = [],
  key = adminKey,
): Promise<OaaResult> {
  const connector = {
    id: 'team',
    plugin: fixture('roster'),
    provider: 'Roster',
    dataSource: 'main',
    ...entry,
  };
  await writeFile(join(work.dir, 'oaa.config.json'), JSON.stringify({ connectors: [connector] }));
  return oaaWith(key, ['run', ...args]);
}

function errorOf(res: OaaResult): ErrorJson {
  return json<{ error: ErrorJson }>(res).error;
}

function noKeys(res: OaaResult): void {
  expect(res.stdout + res.stderr).not.toContain(adminKey);
  expect(res.stdout + res.stderr).not.toContain(memberKey);
}

beforeAll(async () => {
  emulator = await startTestEmulator({ role: 'member' });
  ({ adminKey, apiKey: memberKey, admin } = emulator);
  work = await tempDir('oaa-cli-refusals-');
});

afterEach(async () => {
  await admin.faults.clear();
});

afterAll(async () => {
  await emulator.close();
  await work.remove();
});

describe('oaa run, when the service refuses a name of the config file', { timeout: CLI_TIMEOUT }, () => {
  it('prints each violation as field: description and exits 5', async () => {
    const res = await runConfig({ provider: 'Roster/EU' });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/^Error: connector "team": the service refused the provider "Roster\/EU": /m);
    expect(res.stderr).toMatch(/^ {2}name: must be letters, digits, spaces or /m);
    expect(res.stderr).toContain(
      'Hint: change `provider` of connector "team" in the config file to a value the service accepts',
    );
    expect(res.stderr).not.toContain('Reference error details');
    noKeys(res);
  });

  it('has the violations and the request id at the top of --json', async () => {
    const res = await runConfig({ provider: 'Roster/EU' }, ['--json']);
    expect(res.code).toBe(5);
    const error = errorOf(res);
    expect(error).toMatchObject({ code: 'TARGET_REFUSED', exitCode: 5 });
    expect(error.violations).toEqual([{ field: 'name', description: expect.stringMatching(NAME_RULE) }]);
    expect(error.requestId).toMatch(/\S/);
    expect(error.message).toContain(`(request_id ${error.requestId})`);
  });

  it('names the data source when that is the name refused', async () => {
    const res = await runConfig({ dataSource: 'main/eu' });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('the service refused the data source "main/eu"');
    expect(res.stderr).toMatch(/^ {2}name: must be letters/m);
  });

  it("exits 2 with the service's violation when it refuses the connector's payload", async () => {
    // Valid locally; the service takes no incremental payload as the first push to a data source.
    const res = await runConfig({ dataSource: 'incremental', config: { incremental: true } }, ['--json']);
    expect(res.code).toBe(2);
    const error = errorOf(res);
    expect(error.code).toBe('PAYLOAD_REFUSED');
    expect(error.violations).toEqual([
      { field: 'incremental_change', description: expect.stringContaining('not allowed as the first push') },
    ]);
    expect(error.requestId).toMatch(/\S/);
  });
});

describe(
  'oaa push and the provider commands, when the service refuses a value',
  { timeout: CLI_TIMEOUT },
  () => {
    it('push: a payload the service refuses exits 2 with its violation and request id', async () => {
      const payload = join(work.dir, 'incremental.json');
      const valid = JSON.parse(await readFile(fixture('payloads/app-valid.json'), 'utf8')) as object;
      await writeFile(payload, JSON.stringify({ ...valid, incremental_change: true }));
      const args = ['push', payload, '--provider', 'Wiki', '--data-source', 'fresh', '--create-provider'];
      const res = await oaaWith(adminKey, args);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^ {2}incremental_change: an incremental payload is not allowed/m);
      const error = errorOf(await oaaWith(adminKey, [...args, '--json']));
      expect(error.violations.map((v) => v.field)).toEqual(['incremental_change']);
      expect(error.requestId).toMatch(/\S/);
    });

    it('push: a 400 without violations is still a refused payload (2), not a service failure (4)', async () => {
      await admin.faults.add({ method: 'POST', path: '*:push', status: 400 });
      const res = await oaaWith(adminKey, [
        'push',
        fixture('payloads/app-valid.json'),
        '--provider',
        'Wiki',
        '--data-source',
        'main',
        '--create-provider',
      ]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^Error: POST .*:push failed with 400 InvalidArgument/m);
    });

    it('providers create: a refused name typed on the command line exits 2 with the violation', async () => {
      const res = await oaaWith(adminKey, ['providers', 'create', 'HR/EU', '--template', 'hris', '--json']);
      expect(res.code).toBe(2);
      const error = errorOf(res);
      expect(error.violations).toEqual([{ field: 'name', description: expect.stringMatching(NAME_RULE) }]);
      expect(error.requestId).toMatch(/\S/);
      const text = await oaaWith(adminKey, ['datasources', 'create', 'eu/main', '--provider', 'Wiki']);
      expect(text.code).toBe(2);
      expect(text.stderr).toMatch(/^ {2}name: must be letters/m);
    });
  },
);

describe('a refused API key exits 5 and says what to do', { timeout: CLI_TIMEOUT }, () => {
  it('a revoked key (401): the hint names where the key came from', async () => {
    const { key, record } = await admin.apiKeys.create({ role: 'member' });
    expect((await oaaWith(key, ['providers', 'list'])).code).toBe(0);
    await admin.apiKeys.revoke(record.id);

    const fromEnv = await oaaWith(key, ['providers', 'list']);
    expect(fromEnv.code).toBe(5);
    expect(fromEnv.stderr).toMatch(/^Error: GET .* failed with 401 Unauthenticated/m);
    expect(fromEnv.stderr).toContain(
      'Hint: the key in OAA_API_KEY was refused: it is wrong, expired or revoked; set OAA_API_KEY to a current key, or unset it to use the key of `oaa auth login`',
    );
    expect(fromEnv.stdout + fromEnv.stderr).not.toContain(key);

    const fromFlag = await oaa(['providers', 'list', '--url', emulator.url, '--api-key', key, '--json'], {
      cwd: work.dir,
    });
    expect(fromFlag.code).toBe(5);
    expect(errorOf(fromFlag)).toMatchObject({ exitCode: 5, code: 'Unauthenticated' });
    expect(errorOf(fromFlag).hints[0]).toMatch(/^the key given with --api-key was refused/);
    expect(fromFlag.stdout + fromFlag.stderr).not.toContain(key);

    const run = await runConfig({}, ['--json'], key);
    expect(run.code).toBe(5);
    expect(errorOf(run)).toMatchObject({ code: 'CREDENTIALS_REFUSED', exitCode: 5 });
    expect(errorOf(run).hints[0]).toMatch(/^the key in OAA_API_KEY was refused/);
    expect(run.stdout + run.stderr).not.toContain(key);
  });

  it('a member key on an operation its role may not call (403)', async () => {
    // The emulator lets members call every OAA endpoint, so the service's 403 is answered by a
    // fault that stands in for a role the operation does not allow.
    const denied = {
      method: 'POST',
      path: '/api/v1/providers/custom',
      code: 'PermissionDenied' as const,
      message: 'role member may not call /api/v1/providers/custom; allowed: admin',
      count: 2,
    };
    await admin.faults.add(denied);
    const res = await oaaWith(memberKey, ['providers', 'create', 'Members', '--template', 'hris']);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('failed with 403 PermissionDenied: role member may not call');
    expect(res.stderr).toContain(
      "Hint: the key in OAA_API_KEY is valid, but its role does not allow this call: use a key with a role that does (the service's message names the roles it allows)",
    );
    noKeys(res);

    const run = await runConfig({ provider: 'Members' }, [], memberKey);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/^Error: connector "team": the role of the API key does not allow this call/m);
    expect(run.stderr).toMatch(/^Hint: the key in OAA_API_KEY is valid, but its role does not allow/m);
    noKeys(run);
    const names = json<Provider[]>(await oaaWith(adminKey, ['providers', 'list', '--json'])).map(
      (p) => p.name,
    );
    expect(names).not.toContain('Members');
  });
});
