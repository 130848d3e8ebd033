import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { OaaError } from '@oaakit/core';
import type { Violation } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { formatViolations, schemaViolations } from './issues.js';
import { configSchema } from './schema.js';
import type { OaaConfig } from './schema.js';

/** File names looked for, in this order, when no config path is given. */
export const CONFIG_FILE_NAMES = ['oaa.config.yaml', 'oaa.config.yml', 'oaa.config.json'] as const;

/**
 * oaakit's local directory. Two defaults live in it, on purpose apart: the CLI's embedded emulator
 * (database and key) in `.oaa` of the working directory, and the connectors' state in `.oaa/state`
 * next to the config file. One `.oaa` when both are the same directory.
 */
export const LOCAL_DIR = '.oaa';

/** State directory used when the config sets none, relative to the config file's directory. */
export const DEFAULT_STATE_DIR = `${LOCAL_DIR}/state`;

/** A config file, parsed and checked. */
export interface LoadedConfig {
  /** Absolute path of the file. */
  path: string;
  /** Its directory: relative plugin paths and `stateDir` resolve from here. */
  dir: string;
  config: OaaConfig;
  /** Absolute state directory. */
  stateDir: string;
}

/** The first of {@link CONFIG_FILE_NAMES} in `dir`, or undefined. */
export function findConfigFile(dir: string): string | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const path = resolve(dir, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

function invalid(path: string, violations: Violation[]): OaaError {
  const message = `config file ${path} is invalid:\n${formatViolations(violations)}`;
  return new OaaError(message, {
    code: RUNNER_ERROR_CODES.CONFIG_INVALID,
    details: { path, violations },
    hints: ['fix the keys listed above; the JSON Schema of the file is available from configJsonSchema()'],
  });
}

async function parseText(text: string, path: string): Promise<unknown> {
  if (extname(path).toLowerCase() === '.json') {
    try {
      return JSON.parse(text) as unknown;
    } catch (cause) {
      throw invalid(path, [{ field: '(file)', description: `not valid JSON: ${(cause as Error).message}` }]);
    }
  }
  // Loaded here: a JSON config needs no YAML parser.
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw invalid(
      path,
      doc.errors.map((e) => ({
        field: '(file)',
        description: `not valid YAML: ${e.message.split('\n')[0] ?? e.code}`,
      })),
    );
  }
  return doc.toJS() as unknown;
}

/**
 * Checks a config object against the schema. Throws `CONFIG_INVALID` listing every violation with
 * its key path, e.g. `connectors[0].plugin: required`.
 */
export function parseConfig(value: unknown, source = 'config'): OaaConfig {
  const violations = schemaViolations(configSchema, value ?? {});
  if (violations.length > 0) throw invalid(source, violations);
  return configSchema.parse(value);
}

/**
 * Reads and checks a config file: YAML (`.yaml`, `.yml`) or JSON (`.json`). Without `path`, looks
 * for {@link CONFIG_FILE_NAMES} in `cwd`.
 *
 * @example
 * const loaded = await loadConfig({ cwd: process.cwd() });
 * for (const c of loaded.config.connectors) logger.info(c.id);
 */
export async function loadConfig(options: { path?: string; cwd?: string } = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const path = options.path === undefined ? findConfigFile(cwd) : resolve(cwd, options.path);
  if (path === undefined || !existsSync(path)) {
    const where = path ?? `${cwd} (looked for ${CONFIG_FILE_NAMES.join(', ')})`;
    throw new OaaError(`no config file: ${where}`, {
      code: RUNNER_ERROR_CODES.CONFIG_NOT_FOUND,
      details: { path: where },
      hints: ['create oaa.config.yaml, or pass the path of the config file'],
    });
  }
  const config = parseConfig(await parseText(await readFile(path, 'utf8'), path), path);
  const dir = dirname(path);
  const stateDir = config.stateDir ?? DEFAULT_STATE_DIR;
  return { path, dir, config, stateDir: isAbsolute(stateDir) ? stateDir : resolve(dir, stateDir) };
}
