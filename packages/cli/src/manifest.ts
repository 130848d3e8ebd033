/**
 * The oclif manifest of `oaa` (`oclif.manifest.json` next to `package.json`): every command with its
 * flags and help, written by the build (`npm run build`). With it, oclif loads only the module of
 * the command that runs; without it, it loads every command (and all they import) to find one,
 * which made `oaa --version` take 0.3 s instead of 0.1 s.
 *
 * A manifest older than a built command (a command rebuilt with `tsc -b` alone), or one that does
 * not list the same command files, is stale: `bin/run.js` removes it before oclif starts
 * ({@link dropStaleManifest}), so oclif reads the commands themselves until the next build.
 */
import { readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** File name of the manifest, at the package root. */
export const MANIFEST_FILE = 'oclif.manifest.json';
/** Where the built commands are, from the package root. */
const COMMANDS_DIR = join('dist', 'commands');

/** The command modules under `dist/commands`, as paths from the package root with `/`, sorted; the newest one's time. */
function commandFiles(root: string): { files: string[]; newest: number } {
  const files: string[] = [];
  let newest = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.js')) {
        files.push(relative(root, path).split(sep).join('/'));
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  walk(join(root, COMMANDS_DIR));
  return { files: files.sort(), newest };
}

/** The command files a manifest lists, as `commandFiles` spells them, sorted. */
function listedFiles(manifest: unknown): string[] | undefined {
  const commands = (manifest as { commands?: Record<string, { relativePath?: unknown }> } | null)?.commands;
  if (typeof commands !== 'object' || commands === null) return undefined;
  const files: string[] = [];
  for (const command of Object.values(commands)) {
    const path = command.relativePath;
    if (!Array.isArray(path)) return undefined;
    files.push(path.join('/'));
  }
  return files.sort();
}

/** What {@link manifestState} found. */
export type ManifestState = 'current' | 'stale' | 'missing';

/**
 * Whether the manifest at `root` describes the built commands: `missing` when there is none,
 * `stale` when a command file is newer than it, when it does not list exactly the command files
 * there are, or when it cannot be read; else `current`.
 */
export function manifestState(root: string): ManifestState {
  const path = join(root, MANIFEST_FILE);
  let written: number;
  let listed: string[] | undefined;
  try {
    written = statSync(path).mtimeMs;
    listed = listedFiles(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'stale';
  }
  let built: { files: string[]; newest: number };
  try {
    built = commandFiles(root);
  } catch {
    return 'stale';
  }
  if (listed === undefined || listed.join('\n') !== built.files.join('\n')) return 'stale';
  return built.newest > written ? 'stale' : 'current';
}

/**
 * Removes the manifest at `root` when it is stale (see {@link manifestState}); returns whether it
 * did. A manifest that cannot be removed (a read-only install) is left.
 */
export function dropStaleManifest(root: string): boolean {
  if (manifestState(root) !== 'stale') return false;
  try {
    unlinkSync(join(root, MANIFEST_FILE));
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the manifest of the package at `root` from its built commands (any manifest there is
 * replaced); returns the number of commands in it. Throws when a module under `dist/commands`
 * did not load as a command (oclif only warns, and would leave it out).
 */
export async function writeManifest(root: string): Promise<number> {
  // Removed first: oclif would read an old one instead of the commands.
  rmSync(join(root, MANIFEST_FILE), { force: true });
  const { files } = commandFiles(root);
  const { Plugin } = await import('@oclif/core');
  const plugin = new Plugin({ root, isRoot: true, errorOnManifestCreate: true });
  await plugin.load();
  const manifest = plugin.manifest;
  const listed = new Set(listedFiles(manifest));
  const missing = files.filter((file) => !listed.has(file));
  if (missing.length > 0) throw new Error(`not loaded as commands: ${missing.join(', ')}`);
  writeFileSync(join(root, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return Object.keys(manifest.commands).length;
}
