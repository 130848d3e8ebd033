import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTOR_API_VERSION } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { discoverPlugins } from './discover-plugins.js';
import type { DiscoveredPlugin } from './discover-plugins.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'oaa-discover-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function json(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, JSON.stringify(value));
}

/** A plugin package; its connector is a plain object so that it loads without @oaakit/core. */
async function plugin(
  dir: string,
  options: { name: string; id?: string; apiVersion?: number; built?: boolean },
): Promise<void> {
  const {
    name,
    id = name.replace(/^@[^/]+\//, ''),
    apiVersion = CONNECTOR_API_VERSION,
    built = true,
  } = options;
  await json(join(dir, 'package.json'), {
    name,
    version: '0.0.1',
    type: 'module',
    oaakit: { connector: './index.js', apiVersion },
  });
  if (!built) return;
  const connector = `export default { id: ${JSON.stringify(id)}, version: '2.0.0', apiVersion: ${apiVersion}, template: 'hris',
    description: 'test plugin', configSchema: { safeParse: () => ({ success: true }) }, extract: () => ({}) };`;
  await writeFile(join(dir, 'index.js'), connector);
}

function byPath(plugins: DiscoveredPlugin[], path: string): DiscoveredPlugin | undefined {
  return plugins.find((p) => p.path === join(root, path));
}

describe('discoverPlugins', () => {
  beforeEach(async () => {
    await json(join(root, 'package.json'), { private: true, workspaces: ['plugins/*', 'packages/*'] });
    await plugin(join(root, 'plugins/alpha'), { name: 'alpha' });
    await plugin(join(root, 'plugins/.hidden'), { name: 'hidden' });
    await json(join(root, 'plugins/not-a-plugin/package.json'), { name: 'not-a-plugin', version: '1.0.0' });
    await plugin(join(root, 'packages/gamma'), { name: 'gamma', apiVersion: CONNECTOR_API_VERSION + 1 });
    await plugin(join(root, 'node_modules/@acme/delta'), { name: '@acme/delta', built: false });
    await symlink(join(root, 'plugins/alpha'), join(root, 'node_modules/alpha'), 'dir');
    await plugin(join(root, 'app'), { name: 'app-local', id: 'app-local' });
    await json(join(root, 'app/oaa.config.json'), {
      connectors: [
        { id: 'a1', plugin: '../plugins/alpha', provider: 'P', dataSource: 'one' },
        { id: 'a2', plugin: 'alpha', provider: 'P', dataSource: 'two' },
        { id: 'd', plugin: '@acme/delta', provider: 'P', dataSource: 'three' },
        { id: 'm', plugin: './missing', provider: 'P', dataSource: 'four' },
      ],
    });
  });

  it('lists config, local, workspace and node_modules plugins once each, with id, template and apiVersion', async () => {
    const cwd = join(root, 'app');
    const plugins = await discoverPlugins({ cwd, config: await loadConfig({ cwd }) });

    expect(plugins.map((p) => p.path)).toEqual(
      ['plugins/alpha', 'node_modules/@acme/delta', 'app/missing', 'app', 'packages/gamma'].map((p) =>
        join(root, p),
      ),
    );
    expect(byPath(plugins, 'plugins/alpha')).toEqual({
      id: 'alpha',
      packageName: 'alpha',
      version: '2.0.0',
      template: 'hris',
      description: 'test plugin',
      apiVersion: CONNECTOR_API_VERSION,
      supported: true,
      path: join(root, 'plugins/alpha'),
      origins: ['config', 'workspace', 'node_modules'],
      configIds: ['a1', 'a2'],
    });
    expect(byPath(plugins, 'app')).toMatchObject({ id: 'app-local', origins: ['local'], supported: true });
    expect(byPath(plugins, 'packages/gamma')).toMatchObject({
      id: undefined,
      version: '0.0.1',
      apiVersion: CONNECTOR_API_VERSION + 1,
      supported: false,
      origins: ['workspace'],
      error: { code: 'PLUGIN_API_VERSION' },
    });
    expect(byPath(plugins, 'node_modules/@acme/delta')).toMatchObject({
      packageName: '@acme/delta',
      supported: true,
      configIds: ['d'],
      error: { code: 'PLUGIN_INVALID', message: expect.stringContaining('does not exist') },
    });
    expect(byPath(plugins, 'app/missing')).toMatchObject({
      packageName: undefined,
      supported: false,
      configIds: ['m'],
      error: { code: 'PLUGIN_INVALID' },
    });
  });

  it('finds workspace and node_modules plugins without a config', async () => {
    const plugins = await discoverPlugins({ cwd: join(root, 'plugins') });
    expect(plugins.map((p) => p.id ?? p.packageName).sort()).toEqual(['@acme/delta', 'alpha', 'gamma']);
  });

  it('sees nothing of a workspace from outside it', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'oaa-discover-outside-'));
    try {
      const plugins = await discoverPlugins({ cwd: outside });
      expect(plugins.filter((p) => p.path.startsWith(root))).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
