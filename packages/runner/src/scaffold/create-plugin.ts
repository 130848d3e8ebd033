/**
 * `createPlugin`: a new connector plugin package from the template. The template's common files are
 * copied, then the files of the chosen payload kind (`variants/<template>/`) over them, and the
 * placeholders (`__CONNECTOR_ID__` ...) are replaced.
 */
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { OaaError, TEMPLATES, isTemplate } from '@oaakit/core';
import type { Template } from '@oaakit/core';
import { assertPackageName, pluginNames } from './plugin-name.js';
import type { PluginNames } from './plugin-name.js';
import { SCAFFOLD_ERROR_CODES } from './scaffold-codes.js';
import { defaultOaakitSource, oaakitDependencySpecs, pluginRestSpec } from './oaakit-dependencies.js';
import type { OaakitPackage, OaakitSource } from './oaakit-dependencies.js';
import {
  findManifestTemplate,
  findPluginTemplate,
  isManifestTemplate,
  isPluginTemplate,
} from './template-dir.js';

/** Options of {@link createPlugin}. */
export interface CreatePluginOptions {
  /** npm package name of the plugin, e.g. `oaa-plugin-wiki` or `@acme/oaa-plugin-wiki`. */
  name: string;
  /**
   * The payload kind its connector produces, or `manifest`: a starter REST manifest for
   * `@oaakit/plugin-rest` (a manifest, its config and a recording; no code).
   */
  template: Template | 'manifest';
  /** Where to put it: created when missing; when it exists it must be an empty directory. */
  dir: string;
  /**
   * The template to use; default the one shipped with this package (see `findPluginTemplate`, and
   * `findManifestTemplate` for `manifest`).
   */
  templateDir?: string;
  /**
   * Where the plugin's `@oaakit/*` dependencies come from; default {@link defaultOaakitSource}:
   * `file:` specs on this oaakit's own packages unless it was installed from a registry.
   */
  oaakit?: OaakitSource;
}

/** What {@link createPlugin} made. */
export interface CreatedPlugin {
  /** Absolute path of the new package. */
  dir: string;
  /** Its files, relative to `dir` with `/` separators, sorted. */
  files: string[];
  template: Template | 'manifest';
  names: PluginNames;
  /** Where its `@oaakit/*` dependencies come from. */
  oaakit: OaakitSource;
}

/** Template files whose names npm would not pack as they are; renamed when copied. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' };
const VARIANTS = 'variants';
/** What a build or a run in the template directory itself would leave there: never copied. */
const LEFT_OVER = new Set(['node_modules', 'dist', '.oaa']);
const PLACEHOLDER = /__[A-Z][A-Z0-9_]*__/g;

function placeholders(
  names: PluginNames,
  template: Template | 'manifest',
  specs: Readonly<Record<OaakitPackage, string>>,
  restSpec: string,
): Record<string, string> {
  return {
    __PLUGIN_NAME__: names.packageName,
    __CONNECTOR_ID__: names.connectorId,
    __DISPLAY_NAME__: names.displayName,
    __SOURCE_TYPE__: names.sourceType,
    __TOKEN_VARIABLE__: names.tokenVariable,
    __TEMPLATE__: template,
    __OAAKIT_CLI__: specs.cli,
    __OAAKIT_CLIENT__: specs.client,
    __OAAKIT_CORE__: specs.core,
    __OAAKIT_EMULATOR__: specs.emulator,
    __OAAKIT_RUNNER__: specs.runner,
    __OAAKIT_PLUGIN_REST__: restSpec,
  };
}

/** Relative path (with `/`) -> absolute source path of every file below `root`, the `skip` directory left out. */
async function listFiles(root: string, skip?: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const rel = relative(root, path).split(sep).join('/');
    const first = rel.split('/')[0]!;
    if (first === skip || LEFT_OVER.has(first)) continue;
    files.set(RENAMED[rel] ?? rel, path);
  }
  return files;
}

/** Throws `TARGET_NOT_EMPTY` unless `dir` is missing or an empty directory; says whether it exists. */
async function checkTarget(dir: string): Promise<boolean> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined) return false;
  const entries = info.isDirectory() ? await readdir(dir) : undefined;
  if (entries?.length === 0) return true;
  throw new OaaError(
    entries === undefined
      ? `${dir} exists and is not a directory`
      : `${dir} is not empty (${entries.length} entries); nothing was written`,
    {
      code: SCAFFOLD_ERROR_CODES.TARGET_NOT_EMPTY,
      details: { dir },
      hints: ['choose a new directory (--dir), or empty this one first'],
    },
  );
}

function fill(text: string, values: Readonly<Record<string, string>>, file: string): string {
  const out = text.replace(PLACEHOLDER, (match) => values[match] ?? match);
  const left = out.match(PLACEHOLDER);
  if (left !== null) {
    throw new OaaError(`template file ${file} has an unknown placeholder ${left[0]}`, {
      code: SCAFFOLD_ERROR_CODES.TEMPLATE_INVALID,
      details: { file, placeholder: left[0] },
    });
  }
  return out;
}

/**
 * Generates a new connector plugin package: connector, config schema, fixture, README and a test
 * that runs the connector against the emulator; or, with the template `manifest`, a starter REST
 * manifest for `@oaakit/plugin-rest` with its config files and a recording of the API it reads.
 * Throws `PLUGIN_NAME_INVALID`, `TEMPLATE_UNKNOWN`,
 * `TARGET_NOT_EMPTY`, `TEMPLATE_MISSING` or `TEMPLATE_INVALID`; nothing is written then.
 *
 * @example
 * const { dir, files } = await createPlugin({ name: '@acme/oaa-plugin-wiki', template: 'application', dir: 'oaa-plugin-wiki' });
 */
export async function createPlugin(options: CreatePluginOptions): Promise<CreatedPlugin> {
  assertPackageName(options.name);
  const template: unknown = options.template;
  if (!isTemplate(template) && template !== 'manifest') {
    throw new OaaError(
      `unknown template ${JSON.stringify(template)}; use one of ${[...TEMPLATES, 'manifest'].join(', ')}`,
      {
        code: SCAFFOLD_ERROR_CODES.TEMPLATE_UNKNOWN,
        details: { template, templates: [...TEMPLATES, 'manifest'] },
      },
    );
  }
  let files: Map<string, string>;
  if (template === 'manifest') {
    const root = options.templateDir === undefined ? findManifestTemplate() : resolve(options.templateDir);
    if (!isManifestTemplate(root)) {
      throw new OaaError(`${root} has no manifest starter`, {
        code: SCAFFOLD_ERROR_CODES.TEMPLATE_MISSING,
        details: { templateDir: root, template },
      });
    }
    files = await listFiles(root);
  } else {
    const root = options.templateDir === undefined ? findPluginTemplate() : resolve(options.templateDir);
    const variant = join(root, VARIANTS, template);
    if (!isPluginTemplate(root) || !(await stat(variant).catch(() => undefined))?.isDirectory()) {
      throw new OaaError(`${root} has no plugin template for ${template}`, {
        code: SCAFFOLD_ERROR_CODES.TEMPLATE_MISSING,
        details: { templateDir: root, template },
      });
    }
    files = new Map([...(await listFiles(root, VARIANTS)), ...(await listFiles(variant))]);
  }
  const dir = resolve(options.dir);
  const existed = await checkTarget(dir);

  const names = pluginNames(options.name);
  const oaakit = options.oaakit ?? defaultOaakitSource();
  const values = placeholders(names, template, oaakitDependencySpecs(oaakit), pluginRestSpec(oaakit));
  // Filled in memory first: a template mistake then leaves nothing half-written.
  const contents = new Map<string, string>();
  for (const [rel, source] of files) contents.set(rel, fill(await readFile(source, 'utf8'), values, rel));
  try {
    for (const [rel, text] of contents) {
      const target = join(dir, ...rel.split('/'));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, text, { flag: 'wx' });
    }
  } catch (error) {
    // The directory was missing or empty before: put it back that way.
    if (!existed) await rm(dir, { recursive: true, force: true });
    else for (const entry of await readdir(dir)) await rm(join(dir, entry), { recursive: true, force: true });
    throw error;
  }
  return { dir, files: [...contents.keys()].sort(), template, names, oaakit };
}
