/**
 * Reading a manifest: the YAML parsed with the position of every node, checked by the schema,
 * then compiled (`compileManifest`). Every problem names the manifest path and its line; all of
 * them are reported at once.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OaaError } from '@oaakit/core';
import { REST_ERROR_CODES, type RestErrorCode } from '../errors.js';
import { compileManifest, type CompiledManifest } from './compile.js';
import { issueProblems } from './issues.js';
import { MANIFEST_VERSIONS, manifestSchema, type Manifest } from './schema.js';
import { ManifestFile, formatProblem, type ManifestProblem } from './source-map.js';

/** The manifests shipped in the package, named by id in a config (`manifest: scim`). */
export const SHIPPED_MANIFESTS_DIR = fileURLToPath(new URL('../../manifests/', import.meta.url));

const ID = /^[a-z][a-z0-9-]*$/;
/** YAML errors reported at most. */
const MAX_YAML_ERRORS = 10;

/** The problems of a manifest, and the compiled manifest when there are none. */
export interface ManifestCheck {
  file: ManifestFile;
  problems: ManifestProblem[];
  compiled?: CompiledManifest;
}

/** Checks and compiles the manifest text; `name` is how errors name the file. */
export function checkManifest(text: string, name: string): ManifestCheck {
  const file = new ManifestFile(name, text);
  const problems: ManifestProblem[] = [];
  // A file that is not YAML at all has an error per token: the first few say enough.
  for (const error of file.doc.errors.slice(0, MAX_YAML_ERRORS)) {
    const at = file.at(error.pos[0]);
    const first = error.message.split('\n')[0]!;
    const message = first.length > 120 ? `${first.slice(0, 117)}...` : first;
    problems.push({ path: '(YAML)', line: at.line, column: at.column, message });
  }
  const unreported = file.doc.errors.length - MAX_YAML_ERRORS;
  if (unreported > 0) {
    const last = problems[problems.length - 1]!;
    problems.push({
      ...last,
      message: `and ${unreported} more YAML error${unreported === 1 ? '' : 's'} after this one`,
    });
  }
  if (problems.length > 0) return { file, problems };
  const value: unknown = file.doc.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      file,
      problems: [
        file.problem([], 'a manifest is a YAML mapping (version:, id:, source:, streams:, payload:)'),
      ],
    };
  const version = (value as Record<string, unknown>)['version'];
  if (!(MANIFEST_VERSIONS as readonly unknown[]).includes(version)) {
    const message =
      version === undefined
        ? `has no version; this oaakit reads manifest version ${MANIFEST_VERSIONS.join(', ')} (add version: 1)`
        : `is ${JSON.stringify(version)}; this oaakit reads manifest version ${MANIFEST_VERSIONS.join(', ')}`;
    return { file, problems: [file.problem(version === undefined ? [] : ['version'], message)] };
  }
  const parsed = manifestSchema.safeParse(value, { reportInput: true });
  if (!parsed.success)
    return { file, problems: issueProblems(file, manifestSchema, value, parsed.error.issues) };
  const { compiled, problems: more } = compileManifest(file, parsed.data);
  return more.length > 0 ? { file, problems: more } : { file, problems: [], compiled };
}

/** The error of a manifest with problems: each on a line of its own, `file:line:column: path: message`. */
export function manifestInvalid(file: string, problems: readonly ManifestProblem[]): OaaError<RestErrorCode> {
  const sorted = [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
  const n = sorted.length;
  return new OaaError<RestErrorCode>(
    `manifest ${file} is not valid (${n} problem${n === 1 ? '' : 's'}):\n${sorted.map((p) => `  ${formatProblem(file, p)}`).join('\n')}`,
    {
      code: REST_ERROR_CODES.MANIFEST_INVALID,
      details: { manifest: file, problems: sorted },
      hints: [
        'oaa manifest check FILE checks a manifest alone; the format is in docs/declarative-connectors.md',
      ],
    },
  );
}

/** Compiles the manifest text; throws `MANIFEST_INVALID` listing every problem. */
export function compileManifestText(text: string, name: string): CompiledManifest {
  const checked = checkManifest(text, name);
  if (checked.compiled === undefined) throw manifestInvalid(name, checked.problems);
  return checked.compiled;
}

/** The ids of the shipped manifests. */
export function shippedManifests(): string[] {
  return ['redmine', 'scim'].filter((id) => existsSync(join(SHIPPED_MANIFESTS_DIR, `${id}.yaml`)));
}

/**
 * Where the manifest a config names is: a shipped one by id (`scim`), else a file, relative to
 * `baseDir`. Throws `MANIFEST_NOT_FOUND` naming both tries.
 */
export function manifestPath(spec: string, baseDir: string | undefined): string {
  if (ID.test(spec) && extname(spec) === '') {
    const shipped = join(SHIPPED_MANIFESTS_DIR, `${spec}.yaml`);
    if (existsSync(shipped)) return shipped;
  }
  const path = isAbsolute(spec) ? spec : resolve(baseDir ?? process.cwd(), spec);
  if (existsSync(path)) return path;
  const ids = shippedManifests();
  throw new OaaError<RestErrorCode>(
    ID.test(spec)
      ? `manifest "${spec}" is neither a shipped manifest (${ids.join(', ')}) nor a file (${path})`
      : `manifest file ${path} does not exist`,
    {
      code: REST_ERROR_CODES.MANIFEST_NOT_FOUND,
      details: { manifest: spec, path, shipped: ids },
      hints: [`name a shipped manifest (${ids.join(', ')}) or a YAML file, relative to the config file`],
    },
  );
}

/** Reads and compiles the manifest a config names (see `manifestPath`). */
export async function loadManifest(spec: string, baseDir?: string): Promise<CompiledManifest> {
  const path = manifestPath(spec, baseDir);
  const shipped = dirname(path) === resolve(SHIPPED_MANIFESTS_DIR);
  return compileManifestText(await readFile(path, 'utf8'), shipped ? basename(path) : path);
}

export type { Manifest };
