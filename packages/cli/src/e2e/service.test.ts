/**
 * The service commands against an emulator started by the test on port 0, reached with `--url` and
 * `--api-key` or `OAA_URL` and `OAA_API_KEY`, run through the built binary.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource, Provider } from '@oaakit/client';
import { startEmulator } from '@oaakit/emulator';
import type { RunningEmulator } from '@oaakit/emulator';
import type { PushOutput } from '../commands/push.js';
import type { ErrorJson } from '../output/render-error.js';
import { fixture, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaResult } from '../private-test-helpers/run-oaa.js';

const apiKey = `oaa_cli_test_${randomBytes(16).toString('hex')}`;
let emulator: RunningEmulator;
let work: { dir: string; remove: () => Promise<void> };
let env: Record<string, string>;

/** `oaa` against the test's emulator through OAA_URL / OAA_API_KEY. */
function run(args: string[]): Promise<OaaResult> {
  return oaa(args, { env, cwd: work.dir });
}

function noKey(res: OaaResult): void {
  expect(res.stdout + res.stderr).not.toContain(apiKey);
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'admin' }] });
  work = await tempDir('oaa-cli-service-');
  env = { OAA_URL: emulator.url, OAA_API_KEY: apiKey };
});

afterAll(async () => {
  await emulator.close();
  await work.remove();
});

// Some tests run the binary ten times or more: past 30 s on a loaded 2-core machine.
describe('oaa push and the read commands, against a service URL', { timeout: 120_000 }, () => {
  it('pushes a payload, creating the provider only when asked, and providers list shows it', async () => {
    const refused = await run([
      'push',
      fixture('payloads/app-valid.json'),
      '--provider',
      'Team Wiki',
      '--data-source',
      'wiki (prod)',
    ]);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain('Error: provider "Team Wiki" does not exist');
    expect(refused.stderr).toContain(
      'Hint: pass --create-provider to create it with the application template',
    );

    const pushed = await run([
      'push',
      fixture('payloads/app-valid.json'),
      '--provider',
      'Team Wiki',
      '--data-source',
      'wiki (prod)',
      '--create-provider',
      '--json',
    ]);
    expect(pushed.code).toBe(0);
    const out = json<PushOutput>(pushed);
    expect(out).toMatchObject({ template: 'application', templateGuessed: true, mode: 'single', chunks: 1 });
    expect(out.provider).toMatchObject({ name: 'Team Wiki', created: true });
    expect(out.dataSource).toMatchObject({ name: 'wiki (prod)', created: true });
    expect(out.bytes.compressed).toBeGreaterThan(0);
    expect(out.warnings.map((w) => w.message).join('\n')).toContain(
      'Cannot find identity by names "ada@example.com"',
    );

    const listed = await run(['providers', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(json<Provider[]>(listed)).toContainEqual(
      expect.objectContaining({ id: out.provider.id, name: 'Team Wiki', custom_template: 'application' }),
    );
    noKey(listed);
  });

  it('pushes again into the same provider and data source, and shows a human summary', async () => {
    const res = await run([
      'push',
      fixture('payloads/app-valid.json'),
      '--provider',
      'Team Wiki',
      '--data-source',
      'wiki (prod)',
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^provider: +Team Wiki \[[^\]]+\]$/m);
    expect(res.stdout).toMatch(/^mode: +single push$/m);
    expect(res.stdout).toMatch(/^bytes: +\d+ B JSON, \d+ B gzip$/m);
    expect(res.stdout).toContain('Service warnings (2):');
    const sources = json<DataSource[]>(
      await run(['datasources', 'list', '--provider', 'Team Wiki', '--json']),
    );
    expect(sources).toHaveLength(1);
  });

  it('lists data sources as a table, with the status of the last push', async () => {
    const res = await run(['datasources', 'list', '--provider', 'Team Wiki']);
    expect(res.code).toBe(0);
    const [header, row] = res.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID +NAME +STATUS$/);
    expect(row).toMatch(/^\S+ +wiki \(prod\) +SUCCESS$/);
  });

  it('validates before pushing: an invalid payload exits 2 and pushes nothing', async () => {
    const res = await run([
      'push',
      fixture('payloads/app-invalid.json'),
      '--provider',
      'Bad',
      '--data-source',
      'x',
      '--create-provider',
    ]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'applications[0].local_users[0].groups[0]: local group "no-such-group" does not exist',
    );
    expect(json<Provider[]>(await run(['providers', 'list', '--json'])).map((p) => p.name)).not.toContain(
      'Bad',
    );
  });

  it('refuses a payload of another template than the provider has, exit 4', async () => {
    const res = await run([
      'push',
      fixture('payloads/hris-valid.json'),
      '--provider',
      'Team Wiki',
      '--data-source',
      'hr',
    ]);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain(
      'Error: provider "Team Wiki" has the application template, but the payload is hris',
    );
  });

  it('creates, gets and deletes providers and data sources, by name or id', async () => {
    const created = await run(['providers', 'create', 'HR Suite', '--template', 'hris', '--json']);
    expect(created.code).toBe(0);
    const provider = json<Provider>(created);
    expect(provider).toMatchObject({ name: 'HR Suite', custom_template: 'hris' });

    const byId = await run(['providers', 'get', provider.id]);
    expect(byId.stdout).toMatch(/^name: +HR Suite$/m);

    const ds = json<DataSource>(
      await run(['datasources', 'create', 'main', '--provider', 'HR Suite', '--json']),
    );
    expect(
      json<DataSource>(await run(['datasources', 'get', ds.id, '--provider', provider.id, '--json'])),
    ).toMatchObject({ id: ds.id, name: 'main' });
    const removedDs = await run(['datasources', 'delete', 'main', '--provider', 'HR Suite']);
    expect(removedDs.stdout).toContain('Deleted data source "main"');
    const gone = await run(['datasources', 'get', 'main', '--provider', 'HR Suite']);
    expect(gone.code).toBe(7);
    expect(gone.stderr).toContain(
      'Hint: `oaa datasources list --provider "HR Suite"` shows its data sources',
    );

    expect((await run(['providers', 'delete', 'HR Suite'])).code).toBe(0);
    const missing = await run(['providers', 'get', 'HR Suite', '--json']);
    expect(missing.code).toBe(7);
    expect(json<{ error: ErrorJson }>(missing).error).toMatchObject({
      code: 'PROVIDER_NOT_FOUND',
      exitCode: 7,
      hints: ['`oaa providers list` shows the existing providers'],
    });
  });

  it('sets, reads, saves and removes a provider icon', async () => {
    const set = await run(['providers', 'icon', 'set', 'Team Wiki', fixture('icons/icon.svg')]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('image/svg+xml');

    const shown = await run(['providers', 'icon', 'get', 'Team Wiki']);
    expect(shown.stdout.trim()).toMatch(/^image\/svg\+xml, \d+ B$/);

    await run(['providers', 'icon', 'set', 'Team Wiki', fixture('icons/icon.png')]);
    const out = join(work.dir, 'saved.png');
    const saved = await run(['providers', 'icon', 'get', 'Team Wiki', '--out', out, '--json']);
    expect(json<{ mime_type: string; out: string }>(saved)).toMatchObject({ mime_type: 'image/png', out });
    expect(await readFile(out)).toEqual(await readFile(fixture('icons/icon.png')));

    const notImage = await run(['providers', 'icon', 'set', 'Team Wiki', fixture('icons/not-an-image.txt')]);
    expect(notImage.code).toBe(64);
    expect(notImage.stderr).toContain('is neither a PNG nor an SVG image');

    expect((await run(['providers', 'icon', 'delete', 'Team Wiki'])).code).toBe(0);
    const after = await run(['providers', 'icon', 'get', 'Team Wiki']);
    expect(after.code).toBe(4);
  });
});

describe('target flags and credentials', () => {
  it('takes --url and --api-key over the environment', async () => {
    const res = await oaa(['providers', 'list', '--url', emulator.url, '--api-key', apiKey, '--json'], {
      cwd: work.dir,
    });
    expect(res.code).toBe(0);
    expect(json<Provider[]>(res).map((p) => p.name)).toContain('Team Wiki');
    expect(res.stderr).not.toContain('embedded emulator');
  });

  it('reports a refused key as a credential problem (exit 5) without ever showing the key', async () => {
    const wrong = `${apiKey}-wrong`;
    const res = await oaa(['providers', 'list'], {
      env: { OAA_URL: emulator.url, OAA_API_KEY: wrong },
      cwd: work.dir,
    });
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/^Error: .*401/m);
    expect(res.stderr).not.toContain(wrong);
    const debug = await oaa(['providers', 'list', '--json'], {
      env: { OAA_URL: emulator.url, OAA_API_KEY: wrong, OAA_DEBUG: '1' },
      cwd: work.dir,
    });
    expect(debug.stdout + debug.stderr).not.toContain(wrong);
  });

  it('refuses an API key without a URL instead of silently using the embedded emulator', async () => {
    const res = await oaa(['providers', 'list'], { env: { OAA_API_KEY: apiKey }, cwd: work.dir });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('Error: an API key is set but no service URL');
    noKey(res);
  });

  it('exits 5 when a URL has no key anywhere', async () => {
    const res = await oaa(['providers', 'list', '--url', emulator.url], {
      cwd: work.dir,
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
    });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain(`Error: no API key for ${emulator.url}`);
    expect(res.stderr).toContain('Hint: run `oaa auth login`');
  });

  it('exits 4 with a network error when nothing listens at the URL', async () => {
    const res = await oaa(['providers', 'list', '--url', 'http://127.0.0.1:9', '--api-key', apiKey], {
      cwd: work.dir,
      env: { OAA_DEBUG: '1' },
    });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(
      /^GET \/api\/v1\/providers\/custom failed \(NETWORK_ERROR\); retrying in .* \(retry 1\)$/m,
    );
    expect(res.stderr).toContain('network error');
    expect(res.stderr).toContain('Hint: check that the service URL is right and reachable');
    noKey(res);
  });
});
