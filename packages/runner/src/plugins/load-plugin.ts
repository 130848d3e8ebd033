/**
 * Plugin loading: a plugin is an npm package or a local directory whose package.json declares
 * `"oaakit": { "connector": "./dist/index.js", "apiVersion": 1 }`.
 */
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONNECTOR_API_VERSION, OaaError } from '@oaakit/core';
import type { Connector } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { apiVersionMismatch, assertConnector } from './check-connector.js';

/** A loaded, checked plugin. */
export interface LoadedPlugin {
  /** What the config said: a package name or a path. */
  spec: string;
  /** The plugin's directory (symlinks resolved). */
  dir: string;
  /** `name` and `version` of its package.json. */
  packageName: string | undefined;
  packageVersion: string | undefined;
  /** Absolute path of the imported entry module. */
  entry: string;
  connector: Connector;
}

function invalid(spec: string, message: string, hints: string[] = [], cause?: unknown): OaaError {
  return new OaaError(`plugin ${spec}: ${message}`, {
    code: RUNNER_ERROR_CODES.PLUGIN_INVALID,
    details: { plugin: spec },
    hints,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Whether `spec` is a filesystem path rather than a package name. */
export function isPathSpec(spec: string): boolean {
  return spec.startsWith('.') || isAbsolute(spec) || spec.startsWith('file:');
}

/** The directory of an npm package, looked up in `node_modules` from `baseDir` upwards. */
function packageDir(spec: string, baseDir: string): string | undefined {
  for (let dir = resolve(baseDir); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', spec);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Where `spec` points: a path resolved from `baseDir`, or the package's directory in node_modules. */
function pluginPath(spec: string, baseDir: string): string | undefined {
  const path = spec.startsWith('file:') ? new URL(spec).pathname : spec;
  return isPathSpec(spec) ? resolve(baseDir, path) : packageDir(spec, baseDir);
}

/**
 * The directory of the plugin `spec` (symlinks resolved), found as {@link loadPlugin} finds it,
 * without importing it; undefined when there is no package.json there.
 *
 * @example
 * const dir = resolvePluginDir(entry.plugin, { baseDir: loaded.dir });
 */
export function resolvePluginDir(spec: string, options: { baseDir: string }): string | undefined {
  const found = pluginPath(spec, options.baseDir);
  if (found === undefined || !existsSync(join(found, 'package.json'))) return undefined;
  return realpathSync(found);
}

interface PluginManifest {
  name?: unknown;
  version?: unknown;
  oaakit?: { connector?: unknown; apiVersion?: unknown };
}

async function readManifest(spec: string, dir: string): Promise<PluginManifest> {
  try {
    return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PluginManifest;
  } catch (cause) {
    throw invalid(spec, `cannot read ${join(dir, 'package.json')}: ${(cause as Error).message}`, [], cause);
  }
}

/**
 * Finds, imports and checks a plugin. Package names resolve from `baseDir` (the config file's
 * directory) upwards; paths resolve relative to it. The connector is the entry's default export or
 * its export named `connector`. Throws `PLUGIN_INVALID` or, for another contract version,
 * `PLUGIN_API_VERSION` naming both versions.
 *
 * @example
 * const { connector } = await loadPlugin('@oaakit/plugin-csv-hris', { baseDir: loaded.dir });
 */
export async function loadPlugin(spec: string, options: { baseDir: string }): Promise<LoadedPlugin> {
  const found = pluginPath(spec, options.baseDir);
  if (found === undefined || !existsSync(join(found, 'package.json'))) {
    const where = isPathSpec(spec)
      ? `no package.json in ${found ?? spec}`
      : `package not found from ${options.baseDir}`;
    throw invalid(spec, where, [
      isPathSpec(spec)
        ? 'check the path (it is relative to the config file)'
        : `install it: npm install ${spec}`,
    ]);
  }
  const dir = realpathSync(found);
  const manifest = await readManifest(spec, dir);
  const declared = manifest.oaakit;
  if (declared === undefined || typeof declared.connector !== 'string') {
    throw invalid(spec, 'its package.json has no "oaakit": { "connector": ... } entry', [
      `add "oaakit": { "connector": "./dist/index.js", "apiVersion": ${CONNECTOR_API_VERSION} } to ${join(dir, 'package.json')}`,
    ]);
  }
  if (declared.apiVersion !== CONNECTOR_API_VERSION)
    throw apiVersionMismatch(spec, declared.apiVersion, 'package.json oaakit.apiVersion');
  const entry = resolve(dir, declared.connector);
  if (!existsSync(entry))
    throw invalid(spec, `its connector entry ${entry} does not exist`, ['build the plugin first']);
  let mod: { default?: unknown; connector?: unknown };
  try {
    mod = (await import(pathToFileURL(entry).href)) as typeof mod;
  } catch (cause) {
    if (cause instanceof OaaError) throw cause;
    throw invalid(spec, `importing ${entry} failed: ${(cause as Error).message}`, [], cause);
  }
  const connector = assertConnector(spec, mod.default ?? mod.connector);
  return {
    spec,
    dir,
    packageName: typeof manifest.name === 'string' ? manifest.name : undefined,
    packageVersion: typeof manifest.version === 'string' ? manifest.version : undefined,
    entry,
    connector,
  };
}
