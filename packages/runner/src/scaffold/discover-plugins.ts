/**
 * `discoverPlugins` (`oaa plugins list`): the connector plugins within reach. A plugin is any
 * package whose package.json has an `oaakit` key; they are found where a user puts them: named by
 * the config file, the package in the working directory, the packages of the enclosing npm
 * workspace, and `node_modules` from the working directory upwards.
 */
import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CONNECTOR_API_VERSION, isOaaError } from '@oaakit/core';
import type { Template } from '@oaakit/core';
import type { LoadedConfig } from '../config/load-config.js';
import { isPathSpec, loadPlugin } from '../plugins/load-plugin.js';
import { listNodeModules, listWorkspacePackages, readManifest } from './package-dirs.js';
import type { Manifest } from './package-dirs.js';

/** Where a plugin was found. */
export type PluginOrigin = 'config' | 'local' | 'workspace' | 'node_modules';

/** One plugin found. */
export interface DiscoveredPlugin {
  /** The connector's id; undefined when it could not be loaded. */
  id: string | undefined;
  packageName: string | undefined;
  /** The connector's version, or the package's when the connector could not be loaded. */
  version: string | undefined;
  template: Template | undefined;
  description: string | undefined;
  /** `oaakit.apiVersion` of its package.json. */
  apiVersion: unknown;
  /** Whether this oaakit runs plugins of that apiVersion. */
  supported: boolean;
  /** Its directory, symlinks resolved. */
  path: string;
  origins: PluginOrigin[];
  /** Ids of the config entries that use it. */
  configIds: string[];
  /** Why it could not be loaded (not built, not a connector, another apiVersion), and what to do. */
  error?: { code: string; message: string; hints: string[] };
}

/** Options of {@link discoverPlugins}. */
export interface DiscoverPluginsOptions {
  /** Where to start looking; default the process's working directory. */
  cwd?: string;
  /** A loaded config file: its connectors' plugins are listed first. */
  config?: LoadedConfig;
}

interface Candidate {
  dir: string;
  origins: Set<PluginOrigin>;
  configIds: string[];
}

/** The directory a config entry's `plugin` names, if it exists. */
function configPluginDir(spec: string, baseDir: string): string | undefined {
  if (isPathSpec(spec)) return resolve(baseDir, spec.startsWith('file:') ? new URL(spec).pathname : spec);
  for (let dir = baseDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', spec);
    if (realOrUndefined(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function errorOf(error: unknown): NonNullable<DiscoveredPlugin['error']> {
  if (isOaaError(error)) return { code: error.code, message: error.message, hints: error.hints };
  return {
    code: 'PLUGIN_INVALID',
    message: error instanceof Error ? error.message : String(error),
    hints: [],
  };
}

async function describe(candidate: Candidate, manifest: Manifest | undefined): Promise<DiscoveredPlugin> {
  const declared = manifest?.oaakit;
  const base: DiscoveredPlugin = {
    id: undefined,
    packageName: typeof manifest?.name === 'string' ? manifest.name : undefined,
    version: typeof manifest?.version === 'string' ? manifest.version : undefined,
    template: undefined,
    description: undefined,
    apiVersion: declared?.apiVersion,
    supported: declared?.apiVersion === CONNECTOR_API_VERSION,
    path: candidate.dir,
    origins: [...candidate.origins],
    configIds: candidate.configIds,
  };
  try {
    const { connector } = await loadPlugin(candidate.dir, { baseDir: candidate.dir });
    return {
      ...base,
      id: connector.id,
      version: connector.version,
      template: connector.template,
      description: connector.description,
    };
  } catch (error) {
    return { ...base, error: errorOf(error) };
  }
}

/**
 * The plugins within reach, each loaded to read its connector's id and template. A plugin that
 * cannot be loaded is listed with the reason; only a config file that cannot be read throws.
 *
 * @example
 * for (const p of await discoverPlugins({ config: await loadConfig() })) logger.info(p.id, p.supported);
 */
export async function discoverPlugins(options: DiscoverPluginsOptions = {}): Promise<DiscoveredPlugin[]> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const found = new Map<string, Candidate>();
  const add = (dir: string, origin: PluginOrigin, configId?: string): void => {
    const real = realOrUndefined(dir) ?? resolve(dir);
    const candidate = found.get(real) ?? { dir: real, origins: new Set(), configIds: [] };
    candidate.origins.add(origin);
    if (configId !== undefined) candidate.configIds.push(configId);
    found.set(real, candidate);
  };
  const manifests = new Map<string, Manifest | undefined>();
  const withKey = async (dir: string): Promise<boolean> => {
    const manifest = await readManifest(dir);
    manifests.set(realOrUndefined(dir) ?? resolve(dir), manifest);
    return manifest?.oaakit !== undefined;
  };

  for (const entry of options.config?.config.connectors ?? []) {
    add(
      configPluginDir(entry.plugin, options.config!.dir) ?? resolve(options.config!.dir, entry.plugin),
      'config',
      entry.id,
    );
  }
  if (await withKey(cwd)) add(cwd, 'local');
  for (const dir of await listWorkspacePackages(cwd)) if (await withKey(dir)) add(dir, 'workspace');
  for (const dir of await listNodeModules(cwd)) if (await withKey(dir)) add(dir, 'node_modules');

  const plugins: DiscoveredPlugin[] = [];
  for (const candidate of found.values()) {
    const manifest = manifests.has(candidate.dir)
      ? manifests.get(candidate.dir)
      : await readManifest(candidate.dir);
    plugins.push(await describe(candidate, manifest));
  }
  return plugins;
}
