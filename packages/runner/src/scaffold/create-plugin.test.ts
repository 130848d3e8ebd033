import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTOR_API_VERSION, TEMPLATES } from '@oaakit/core';
import type { Template } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlugin } from './create-plugin.js';
import { OAAKIT_PACKAGES, defaultOaakitSource, oaakitDependencySpecs } from './oaakit-dependencies.js';
import { RUNNER_PACKAGE_ROOT } from './template-dir.js';
import { rejection } from '../private-test-helpers/rejection.js';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'oaa-scaffold-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

async function text(dir: string, file: string): Promise<string> {
  return readFile(join(dir, file), 'utf8');
}

/** This checkout's packages/ directory (the runner is packages/runner). */
const PACKAGES_DIR = join(RUNNER_PACKAGE_ROOT, '..');

/** The version of this checkout's packages/<name>. */
async function checkoutVersion(name: string): Promise<string> {
  return (JSON.parse(await text(join(PACKAGES_DIR, name), 'package.json')) as { version: string }).version;
}

/** Writes a package.json for `@oaakit/<name>` at `version` into `dir`, as an install would. */
async function installPackage(dir: string, name: string, version: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const manifest = { name: `@oaakit/${name}`, version, exports: { './package.json': './package.json' } };
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest));
}

describe('createPlugin', () => {
  it.each(TEMPLATES)(
    'generates a %s plugin package with every placeholder replaced',
    async (template: Template) => {
      const created = await createPlugin({
        name: '@acme/oaa-plugin-wiki',
        template,
        dir: join(work, 'wiki'),
      });

      expect(created.dir).toBe(join(work, 'wiki'));
      expect(created.files).toEqual([
        '.gitignore',
        'README.md',
        'acceptance.config.yaml',
        'fixtures/source.har',
        'fixtures/source.json',
        'oaa.config.yaml',
        'package.json',
        'src/acceptance.test.ts',
        'src/config.ts',
        'src/index.test.ts',
        'src/index.ts',
        'src/private-test-helpers/harness.ts',
        'src/records.ts',
        'src/source.ts',
        'tsconfig.json',
        'tsconfig.test.json',
        'vitest.config.ts',
      ]);
      expect((await readdir(created.dir, { recursive: true })).length).toBeGreaterThanOrEqual(
        created.files.length,
      );
      for (const file of created.files)
        expect(await text(created.dir, file)).not.toMatch(/__[A-Z][A-Z0-9_]*__/);

      const manifest = JSON.parse(await text(created.dir, 'package.json')) as { description: string };
      expect(manifest).toMatchObject({
        name: '@acme/oaa-plugin-wiki',
        type: 'module',
        oaakit: { connector: './dist/index.js', apiVersion: CONNECTOR_API_VERSION },
        // From this checkout, the plugin depends on the checkout's own packages.
        peerDependencies: { '@oaakit/core': `file:${join(PACKAGES_DIR, 'core')}` },
        devDependencies: { '@oaakit/emulator': `file:${join(PACKAGES_DIR, 'emulator')}` },
        scripts: {
          build: expect.any(String),
          test: 'vitest run',
          'test:acceptance':
            'oaa plugins test . --config acceptance.config.yaml --replay fixtures/source.har',
        },
      });
      // The acceptance kit's resources check reads its bound from here (`oaa plugins test`).
      expect(manifest).toMatchObject({ oaakit: { acceptance: { peakRssMb: expect.any(Number) } } });
      expect(manifest.description).toContain(template);

      const index = await text(created.dir, 'src/index.ts');
      expect(index).toContain(`id: 'wiki'`);
      expect(index).toContain(`template: '${template}'`);
      expect(index).toContain(`from '@oaakit/core'`);
      expect(await text(created.dir, 'src/config.ts')).toContain(`default('wiki')`);
      expect(await text(created.dir, 'oaa.config.yaml')).toContain('token: env:WIKI_TOKEN');
      expect(await text(created.dir, 'acceptance.config.yaml')).toContain('token: env:WIKI_TOKEN');
      expect(await text(created.dir, 'src/acceptance.test.ts')).toContain('await runAcceptance(connector,');
      expect(await text(created.dir, 'src/index.test.ts')).toMatch(/OAA\.wiki\./);
    },
  );

  it('generates the manifest starter: a REST manifest, its configs and recording, depending on the REST plugin', async () => {
    const created = await createPlugin({
      name: 'oaa-tracker',
      template: 'manifest',
      dir: join(work, 'tracker'),
    });
    expect(created.template).toBe('manifest');
    expect(created.files).toEqual([
      '.gitignore',
      'README.md',
      'acceptance.config.yaml',
      'fixtures/source.har',
      'manifest.yaml',
      'oaa.config.yaml',
      'package.json',
    ]);
    for (const file of created.files)
      expect(await text(created.dir, file)).not.toMatch(/__[A-Z][A-Z0-9_]*__/);
    const manifest = await text(created.dir, 'manifest.yaml');
    expect(manifest).toContain('id: oaa-tracker\n');
    expect(manifest).toContain('"application_type": "oaa_tracker"');
    expect(JSON.parse(await text(created.dir, 'package.json'))).toMatchObject({
      name: 'oaa-tracker',
      dependencies: { '@oaakit/plugin-rest': `file:${join(PACKAGES_DIR, '..', 'plugins', 'rest')}` },
      devDependencies: { '@oaakit/cli': `file:${join(PACKAGES_DIR, 'cli')}` },
      scripts: {
        'test:acceptance':
          'oaa plugins test --config acceptance.config.yaml --connector oaa-tracker --replay fixtures/source.har',
      },
    });
    expect(await text(created.dir, 'oaa.config.yaml')).toContain("plugin: '@oaakit/plugin-rest'");
    const registry = await createPlugin({
      name: 'oaa-tracker',
      template: 'manifest',
      dir: join(work, 'tracker-registry'),
      oaakit: 'registry',
    });
    const deps = (
      JSON.parse(await text(registry.dir, 'package.json')) as { dependencies: Record<string, string> }
    ).dependencies;
    expect(deps['@oaakit/plugin-rest']).toMatch(/^\^\d+\.\d+\.\d+/);
  });

  it('depends on a registry version range when asked to, and on file: packages by default from a checkout', async () => {
    expect(defaultOaakitSource()).toEqual({ dir: PACKAGES_DIR });
    const created = await createPlugin({
      name: 'oaa-plugin-wiki',
      template: 'hris',
      dir: join(work, 'wiki'),
      oaakit: 'registry',
    });
    expect(created.oaakit).toBe('registry');
    const manifest = JSON.parse(await text(created.dir, 'package.json')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      peerDependencies: { '@oaakit/core': `^${await checkoutVersion('core')}` },
      devDependencies: {
        '@oaakit/cli': `^${await checkoutVersion('cli')}`,
        '@oaakit/client': `^${await checkoutVersion('client')}`,
        '@oaakit/core': `^${await checkoutVersion('core')}`,
        '@oaakit/emulator': `^${await checkoutVersion('emulator')}`,
        '@oaakit/runner': `^${await checkoutVersion('runner')}`,
      },
    });
  });

  it('takes each registry range from the version installed with the runner, as a global install of the CLI lays them out', async () => {
    // npm i -g @oaakit/cli: <prefix>/lib/node_modules/@oaakit/cli, its dependencies in its own node_modules.
    const global = join(work, 'prefix', 'lib', 'node_modules');
    const cli = join(global, '@oaakit', 'cli');
    await installPackage(cli, 'cli', '2.4.0');
    await installPackage(join(cli, 'node_modules', '@oaakit', 'core'), 'core', '2.3.1');
    await installPackage(join(cli, 'node_modules', '@oaakit', 'client'), 'client', '2.3.0');
    await installPackage(join(cli, 'node_modules', '@oaakit', 'emulator'), 'emulator', '2.2.5');
    const runner = join(cli, 'node_modules', '@oaakit', 'runner');
    await installPackage(runner, 'runner', '2.3.2');
    expect(defaultOaakitSource(runner)).toBe('registry');
    expect(oaakitDependencySpecs('registry', runner)).toEqual({
      cli: '^2.4.0',
      client: '^2.3.0',
      core: '^2.3.1',
      emulator: '^2.2.5',
      runner: '^2.3.2',
    });
  });

  it("gives a package not installed beside the runner the runner's own version (they are released together)", async () => {
    const project = join(work, 'project', 'node_modules', '@oaakit');
    await installPackage(join(project, 'core'), 'core', '3.0.1');
    await installPackage(join(project, 'runner'), 'runner', '3.0.0');
    const specs = oaakitDependencySpecs('registry', join(project, 'runner'));
    expect(Object.keys(specs).sort()).toEqual([...OAAKIT_PACKAGES].sort());
    expect(specs).toEqual({
      cli: '^3.0.0',
      client: '^3.0.0',
      core: '^3.0.1',
      emulator: '^3.0.0',
      runner: '^3.0.0',
    });
  });

  it('takes a registry range for an oaakit installed into node_modules', async () => {
    const installed = join(work, 'node_modules', '@oaakit', 'runner');
    await mkdir(installed, { recursive: true });
    expect(defaultOaakitSource(installed)).toBe('registry');
    // A lone runner outside node_modules, without its sibling packages, cannot give file: specs either.
    const lone = join(work, 'lone', 'runner');
    await mkdir(lone, { recursive: true });
    expect(defaultOaakitSource(lone)).toBe('registry');
  });

  it('writes into an existing empty directory', async () => {
    const dir = join(work, 'empty');
    await mkdir(dir);
    const created = await createPlugin({ name: 'hr-feed', template: 'hris', dir });
    expect(created.names).toMatchObject({
      connectorId: 'hr-feed',
      displayName: 'Hr Feed',
      sourceType: 'hr_feed',
    });
    expect(await text(dir, 'src/index.ts')).toContain(`id: 'hr-feed'`);
  });

  it('refuses a directory that is not empty and writes nothing', async () => {
    const dir = join(work, 'taken');
    await mkdir(dir);
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const error = await rejection(createPlugin({ name: 'wiki', template: 'application', dir }));
    expect(error.code).toBe('TARGET_NOT_EMPTY');
    expect(error.message).toContain(dir);
    expect(error.message).toContain('not empty');
    expect(await readdir(dir)).toEqual(['notes.txt']);
    expect(await text(dir, 'notes.txt')).toBe('mine');
  });

  it('refuses a path that is a file', async () => {
    const file = join(work, 'file');
    await writeFile(file, '');
    const error = await rejection(createPlugin({ name: 'wiki', template: 'application', dir: file }));
    expect(error.code).toBe('TARGET_NOT_EMPTY');
    expect(error.message).toContain('not a directory');
  });

  it.each([
    ['Wiki', 'capital letters'],
    ['my plugin', 'may hold only'],
    ['.wiki', 'starts with "." or "_"'],
    ['_wiki', 'starts with "." or "_"'],
    ['@acme', '@scope/name'],
    ['@acme/', '@scope/name'],
    ['wiki!', 'may hold only'],
    ['http', 'core module'],
    ['node_modules', 'reserved'],
    ['', 'empty'],
    ['a'.repeat(215), 'longer than 214'],
  ])('refuses the name %j (%s) and creates nothing', async (name, problem) => {
    const dir = join(work, 'bad');
    const error = await rejection(createPlugin({ name, template: 'application', dir }));
    expect(error.code).toBe('PLUGIN_NAME_INVALID');
    expect(error.message).toContain(problem);
    expect(await readdir(work)).toEqual([]);
  });

  it('refuses an unknown template', async () => {
    const error = await rejection(
      createPlugin({ name: 'wiki', template: 'scim' as Template, dir: join(work, 'x') }),
    );
    expect(error.code).toBe('TEMPLATE_UNKNOWN');
    expect(error.message).toContain('application, identity_provider, hris');
    expect(await readdir(work)).toEqual([]);
  });

  it('reports a template directory without the template', async () => {
    const error = await rejection(
      createPlugin({ name: 'wiki', template: 'application', dir: join(work, 'x'), templateDir: work }),
    );
    expect(error.code).toBe('TEMPLATE_MISSING');
  });

  it('copies a custom template without build leftovers, and refuses one with an unknown placeholder', async () => {
    const template = join(work, 'template');
    await mkdir(join(template, 'variants/hris'), { recursive: true });
    await mkdir(join(template, 'dist'));
    await writeFile(join(template, 'package.json'), '{ "name": "__PLUGIN_NAME__" }');
    await writeFile(join(template, 'dist/index.js'), 'stale');
    await writeFile(join(template, 'variants/hris/notes.md'), '# __DISPLAY_NAME__ (__TEMPLATE__)');
    const created = await createPlugin({
      name: 'acme-hr',
      template: 'hris',
      dir: join(work, 'ok'),
      templateDir: template,
    });
    expect(created.files).toEqual(['notes.md', 'package.json']);
    expect(await text(created.dir, 'notes.md')).toBe('# Acme Hr (hris)');

    await writeFile(join(template, 'variants/hris/broken.ts'), `export const x = '__CONECTOR_ID__';`);
    const error = await rejection(
      createPlugin({ name: 'acme-hr', template: 'hris', dir: join(work, 'broken'), templateDir: template }),
    );
    expect(error).toMatchObject({
      code: 'TEMPLATE_INVALID',
      message: expect.stringContaining('__CONECTOR_ID__'),
    });
    expect((await readdir(work)).sort()).toEqual(['ok', 'template']);
  });
});
