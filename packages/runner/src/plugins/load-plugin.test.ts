import { createRequire } from 'node:module';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CONNECTOR_API_VERSION } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, fixture } from '../private-test-helpers/harness.js';
import { loadPlugin } from './load-plugin.js';

const require = createRequire(import.meta.url);
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-plugins-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadPlugin', () => {
  it('loads a local directory relative to the config directory', async () => {
    const plugin = await loadPlugin('./app', { baseDir: FIXTURES });
    expect(plugin).toMatchObject({
      packageName: 'oaakit-fixture-app',
      packageVersion: '1.2.3',
      dir: fixture('app'),
    });
    expect(plugin.connector).toMatchObject({
      id: 'fixture-app',
      template: 'application',
      apiVersion: CONNECTOR_API_VERSION,
    });
  });

  it('takes the export named `connector` when there is no default export', async () => {
    const plugin = await loadPlugin(fixture('app-with-secret'), { baseDir: dir });
    expect(plugin.connector.id).toBe('fixture-app-with-secret');
  });

  it('resolves an npm package from node_modules above the config directory', async () => {
    const modules = join(dir, 'node_modules');
    await mkdir(join(modules, '@acme'), { recursive: true });
    await mkdir(join(modules, '@oaakit'), { recursive: true });
    await cp(fixture('app'), join(modules, '@acme', 'hr-plugin'), { recursive: true });
    // The copy outside the repository finds its own dependencies where an install would put them.
    await symlink(dirname(require.resolve('@oaakit/core/package.json')), join(modules, '@oaakit', 'core'));
    await symlink(dirname(require.resolve('zod/package.json')), join(modules, 'zod'));
    const project = join(dir, 'project', 'conf');
    await mkdir(project, { recursive: true });
    const plugin = await loadPlugin('@acme/hr-plugin', { baseDir: project });
    expect(plugin.connector.id).toBe('fixture-app');
  });

  it('refuses a package.json declaring another apiVersion, naming both versions', async () => {
    await expect(loadPlugin(fixture('wrong-api'), { baseDir: dir })).rejects.toMatchObject({
      code: 'PLUGIN_API_VERSION',
      message: expect.stringContaining(
        `written for connector apiVersion 2 (package.json oaakit.apiVersion), but this oaakit supports apiVersion ${CONNECTOR_API_VERSION}`,
      ),
    });
  });

  it('refuses a connector export written for another apiVersion', async () => {
    await expect(loadPlugin(fixture('wrong-api-connector'), { baseDir: dir })).rejects.toMatchObject({
      code: 'PLUGIN_API_VERSION',
      message: expect.stringContaining('apiVersion 3 (its connector)'),
      hints: ['upgrade oaakit to a version that supports this plugin'],
    });
  });

  it('explains what is wrong with an export that is not a connector', async () => {
    const error = await loadPlugin(fixture('not-a-connector'), { baseDir: dir }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PLUGIN_INVALID' });
    expect((error as Error).message).toContain(
      'template must be one of application, identity_provider, hris',
    );
    expect((error as Error).message).toContain('extract must be a function');
  });

  it('says how to fix a missing package, path or oaakit key', async () => {
    await expect(loadPlugin('no-such-oaakit-plugin', { baseDir: dir })).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      hints: ['install it: npm install no-such-oaakit-plugin'],
    });
    await expect(loadPlugin('./missing', { baseDir: dir })).rejects.toMatchObject({ code: 'PLUGIN_INVALID' });
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'plain' }));
    await expect(loadPlugin('.', { baseDir: dir })).rejects.toMatchObject({
      message: expect.stringContaining('has no "oaakit": { "connector": ... } entry'),
    });
  });
});
