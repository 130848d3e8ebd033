import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageNameProblem, pluginNames } from './plugin-name.js';
import { findPluginTemplate, pluginTemplateCandidates } from './template-dir.js';

describe('packageNameProblem', () => {
  it.each(['wiki', 'oaa-plugin-wiki', '@acme/oaa-plugin-wiki', 'wiki.v2', 'wiki_2', '@a-b/c.d', '3d-viewer'])(
    'accepts %j',
    (name) => expect(packageNameProblem(name)).toBeUndefined(),
  );
});

describe('pluginNames', () => {
  it.each([
    ['@acme/oaa-plugin-wiki', 'wiki', 'Wiki', 'wiki', 'WIKI_TOKEN'],
    ['oaakit-plugin-people-hub', 'people-hub', 'People Hub', 'people_hub', 'PEOPLE_HUB_TOKEN'],
    ['crm-connector', 'crm', 'Crm', 'crm', 'CRM_TOKEN'],
    ['@oaakit/plugin-okta.v2', 'okta-v2', 'Okta V2', 'okta_v2', 'OKTA_V2_TOKEN'],
    [
      '3d-viewer',
      'connector-3d-viewer',
      'Connector 3d Viewer',
      'connector_3d_viewer',
      'CONNECTOR_3D_VIEWER_TOKEN',
    ],
    ['oaa-plugin', 'oaa', 'Oaa', 'oaa', 'OAA_TOKEN'],
  ])('derives the names of %j', (name, connectorId, displayName, sourceType, tokenVariable) => {
    expect(pluginNames(name)).toMatchObject({ connectorId, displayName, sourceType, tokenVariable });
  });

  it('gives a connector id that defineConnector accepts', () => {
    for (const name of ['a', '-x-', '@s/_', 'x..y', '9']) {
      expect(pluginNames(name).connectorId).toMatch(/^[a-z][a-z0-9-]*$/);
    }
  });
});

describe('findPluginTemplate', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'oaa-template-dir-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function fakeTemplate(dir: string): Promise<void> {
    await mkdir(join(dir, 'variants'), { recursive: true });
    await writeFile(join(dir, 'package.json'), '{}');
  }

  it('finds the repository template from this checkout', () => {
    expect(findPluginTemplate()).toMatch(/templates[\\/]plugin$/);
  });

  it('prefers the copy inside an installed package', async () => {
    const pkg = join(root, 'node_modules/@oaakit/runner');
    await fakeTemplate(join(pkg, 'templates/plugin'));
    await fakeTemplate(join(root, 'node_modules/templates/plugin'));
    expect(findPluginTemplate(pkg)).toBe(join(pkg, 'templates/plugin'));
  });

  it('uses the repository layout (packages/runner -> templates/plugin)', async () => {
    const pkg = join(root, 'packages/runner');
    await mkdir(pkg, { recursive: true });
    await cp(join(findPluginTemplate(), 'package.json'), join(root, 'templates/plugin/package.json'), {
      recursive: true,
    });
    await mkdir(join(root, 'templates/plugin/variants'));
    expect(findPluginTemplate(pkg)).toBe(join(root, 'templates/plugin'));
  });

  it('names the places it looked when there is no template', () => {
    const pkg = join(root, 'packages/runner');
    expect(() => findPluginTemplate(pkg)).toThrow(
      expect.objectContaining({
        code: 'TEMPLATE_MISSING',
        message: expect.stringContaining(pluginTemplateCandidates(pkg)[0]!),
      }),
    );
  });
});
