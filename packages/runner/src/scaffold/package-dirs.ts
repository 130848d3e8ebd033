/**
 * Package directories near a working directory: the packages of the enclosing npm workspace and
 * those installed in `node_modules` from the directory upwards, the way Node resolves them.
 */
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** The parts of a package.json that plugin discovery reads. */
export interface Manifest {
  name?: unknown;
  version?: unknown;
  workspaces?: unknown;
  oaakit?: { connector?: unknown; apiVersion?: unknown };
}

/** The package.json of `dir`, or undefined when there is none or it is not a JSON object. */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  try {
    const value = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

async function subdirectories(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

function workspacePatterns(manifest: Manifest | undefined): string[] | undefined {
  const w = manifest?.workspaces;
  const list = Array.isArray(w) ? w : (w as { packages?: unknown } | undefined)?.packages;
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : undefined;
}

/** `*` in one path segment as a pattern; dot directories are never matched, as npm does. */
function segmentPattern(segment: string): RegExp {
  const body = segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${body}$`);
}

/** The directories a workspace pattern such as `plugins/*` names; `**` is read as `*`. */
async function expand(root: string, pattern: string): Promise<string[]> {
  let dirs = [root];
  for (const segment of pattern
    .replace(/\*\*/g, '*')
    .split('/')
    .filter((s) => s !== '' && s !== '.')) {
    if (!segment.includes('*')) {
      dirs = dirs.map((d) => join(d, segment));
      continue;
    }
    const re = segmentPattern(segment);
    const next: string[] = [];
    for (const d of dirs)
      for (const name of await subdirectories(d)) if (re.test(name)) next.push(join(d, name));
    dirs = next;
  }
  return dirs;
}

/** The package directories of the nearest enclosing npm workspace root (none outside one). */
export async function listWorkspacePackages(cwd: string): Promise<string[]> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const patterns = workspacePatterns(await readManifest(dir));
    if (patterns !== undefined) {
      const dirs: string[] = [];
      for (const pattern of patterns.filter((p) => !p.startsWith('!')))
        dirs.push(...(await expand(dir, pattern)));
      return dirs;
    }
    if (dirname(dir) === dir) return [];
  }
}

/** Every package directory in `node_modules` of `cwd` and each directory above it (scopes included). */
export async function listNodeModules(cwd: string): Promise<string[]> {
  const dirs: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    for (const name of await subdirectories(modules)) {
      if (!name.startsWith('@')) dirs.push(join(modules, name));
      else
        for (const scoped of await subdirectories(join(modules, name)))
          dirs.push(join(modules, name, scoped));
    }
    if (dirname(dir) === dir) return dirs;
  }
}
