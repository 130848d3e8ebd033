/**
 * `oaa plugins new` and `oaa plugins list`, run as the built binary. The journey test generates a
 * plugin outside this checkout, links the checkout's packages into its node_modules (what
 * `npm install` would do once they are published), builds it with its own tsconfig, lists it and
 * runs it with `oaa run` against an emulator.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CONNECTOR_API_VERSION } from '@oaakit/core';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import type { DiscoveredPlugin, RunResult } from '@oaakit/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorJson } from '../../output/render-error.js';
import { CLI_ROOT, json, oaa, tempDir } from '../../private-test-helpers/run-oaa.js';

const REPO = resolve(CLI_ROOT, '../..');
const run = promisify(execFile);

let work: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  work = await tempDir('oaa-cli-plugins-');
});
afterAll(async () => {
  await work.remove();
});

describe('oaa plugins new', () => {
  it('generates a plugin package and says what to do next', async () => {
    const res = await oaa(['plugins', 'new', '@acme/oaa-plugin-wiki', '--template', 'hris'], {
      cwd: work.dir,
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      'Created @acme/oaa-plugin-wiki (connector wiki, template hris) in oaa-plugin-wiki:',
    );
    expect(res.stdout).toContain('  src/index.ts');
    expect(res.stdout).toContain('  src/acceptance.test.ts');
    expect(res.stdout).toContain('WIKI_TOKEN=dev npx oaa run --dry-run');
    const manifest = JSON.parse(await readFile(join(work.dir, 'oaa-plugin-wiki/package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@acme/oaa-plugin-wiki',
      scripts: { 'test:acceptance': expect.stringContaining('oaa plugins test .') },
      oaakit: { apiVersion: CONNECTOR_API_VERSION, acceptance: { peakRssMb: expect.any(Number) } },
    });
  });

  it('refuses a directory that is not empty, and a bad name, with the reason', async () => {
    await mkdir(join(work.dir, 'taken'));
    await writeFile(join(work.dir, 'taken/keep.txt'), 'mine');
    const taken = await oaa(['plugins', 'new', 'wiki', '--dir', 'taken'], { cwd: work.dir });
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain('is not empty');
    expect(await readFile(join(work.dir, 'taken/keep.txt'), 'utf8')).toBe('mine');

    const bad = await oaa(['plugins', 'new', 'My Plugin', '--json'], { cwd: work.dir });
    expect(bad.code).not.toBe(0);
    expect(json<{ error: ErrorJson }>(bad).error).toMatchObject({
      code: 'PLUGIN_NAME_INVALID',
      message: expect.stringContaining('not a valid npm package name'),
    });
  });
});

describe('oaa plugins list', () => {
  it('shows the workspace plugins of this checkout', async () => {
    const res = await oaa(['plugins', 'list', '--json'], { cwd: REPO });
    expect(res.code).toBe(0);
    const plugins = json<DiscoveredPlugin[]>(res);
    expect(plugins).toContainEqual(
      expect.objectContaining({
        id: 'csv-hris',
        template: 'hris',
        supported: true,
        origins: expect.arrayContaining(['workspace']),
      }),
    );
    expect(plugins).toContainEqual(
      expect.objectContaining({ id: 'scim-app', template: 'application', supported: true }),
    );
  });

  it('marks a plugin of another apiVersion as unsupported, with the reason', async () => {
    const dir = join(work.dir, 'future');
    await mkdir(join(dir, 'plugin'), { recursive: true });
    await writeFile(
      join(dir, 'plugin/package.json'),
      JSON.stringify({
        name: 'future-plugin',
        version: '9.0.0',
        oaakit: { connector: './index.js', apiVersion: 99 },
      }),
    );
    await writeFile(
      join(dir, 'oaa.config.json'),
      JSON.stringify({ connectors: [{ id: 'f', plugin: './plugin', provider: 'P', dataSource: 'D' }] }),
    );
    const res = await oaa(['plugins', 'list'], { cwd: dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^-\s+future-plugin\s+9\.0\.0\s+-\s+99\s+no\s+config \(f\)\s+plugin$/m);
    expect(res.stdout).toContain('connector apiVersion 99');
  });
});

describe('a generated plugin, outside the checkout', () => {
  let emulator: TestEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator({ role: 'admin' });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('builds with its own tsconfig, is listed, and `oaa run` pushes its fixture', async () => {
    const created = await oaa(['plugins', 'new', 'people-hub', '--template', 'identity_provider'], {
      cwd: work.dir,
    });
    expect(created.code).toBe(0);
    const dir = join(work.dir, 'people-hub');
    await mkdir(join(dir, 'node_modules'));
    for (const name of ['@oaakit', '@types', 'typescript']) {
      await symlink(join(REPO, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    }
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { cwd: dir });

    const listed = json<DiscoveredPlugin[]>(await oaa(['plugins', 'list', '--json'], { cwd: dir }));
    expect(listed.find((p) => p.path.endsWith('people-hub'))).toMatchObject({
      id: 'people-hub',
      packageName: 'people-hub',
      template: 'identity_provider',
      apiVersion: CONNECTOR_API_VERSION,
      supported: true,
      origins: ['config', 'local'],
      configIds: ['people-hub'],
    });

    const env = { ...emulator.env, PEOPLE_HUB_TOKEN: 'unused' };
    const pushed = await oaa(['run', '--json'], { cwd: dir, env });
    expect(pushed.code).toBe(0);
    const [result] = json<{ results: RunResult[] }>(pushed).results;
    expect(result).toMatchObject({
      status: 'pushed',
      dataSource: { name: 'People Hub (fixture)', created: true },
    });
    const { admin } = emulator;
    assert(result?.status === 'pushed');
    const dataSourceId = result.dataSource.id;
    const users = await admin.graph.nodes({ dataSourceId, type: 'OAA.people_hub.IdPUser' });
    expect(users.map((u) => u.name).sort()).toEqual([
      'alice@example.com',
      'bob@example.com',
      'carol@example.com',
    ]);
  });
});
