import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, dropStaleManifest, manifestState, writeManifest } from './manifest.js';

const cliRoot = fileURLToPath(new URL('..', import.meta.url));
const repoModules = join(cliRoot, '..', '..', 'node_modules');

function command(summary: string): string {
  return [
    "import { Command } from '@oclif/core';",
    'export default class Hello extends Command {',
    `  static summary = ${JSON.stringify(summary)};`,
    '  async run() {}',
    '}',
    '',
  ].join('\n');
}

describe('the oclif manifest', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'oaa-manifest-'));
    // The commands import @oclif/core: resolved through the repository's modules.
    symlinkSync(repoModules, join(root, 'node_modules'), 'dir');
    const pkg = {
      name: 'manifest-probe',
      version: '1.2.3',
      type: 'module',
      oclif: { commands: './dist/commands' },
    };
    writeFileSync(join(root, 'package.json'), JSON.stringify(pkg));
    mkdirSync(join(root, 'dist', 'commands', 'greet'), { recursive: true });
    writeFileSync(join(root, 'dist', 'commands', 'hello.js'), command('Says hello.'));
    writeFileSync(join(root, 'dist', 'commands', 'greet', 'all.js'), command('Greets everyone.'));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Sets a file's times to `seconds` after now, as a later build would. */
  function later(path: string, seconds = 60): void {
    const at = new Date(Date.now() + seconds * 1000);
    utimesSync(path, at, at);
  }

  it('is written from the built commands, with their help, and is current', async () => {
    expect(manifestState(root)).toBe('missing');
    await expect(writeManifest(root)).resolves.toBe(2);
    const manifest = JSON.parse(readFileSync(join(root, MANIFEST_FILE), 'utf8')) as {
      version: string;
      commands: Record<string, { summary?: string }>;
    };
    expect(manifest.version).toBe('1.2.3');
    expect(Object.keys(manifest.commands).sort()).toEqual(['greet:all', 'hello']);
    expect(manifest.commands.hello?.summary).toBe('Says hello.');
    expect(manifestState(root)).toBe('current');
    expect(dropStaleManifest(root)).toBe(false);
    expect(existsSync(join(root, MANIFEST_FILE))).toBe(true);
  });

  it('is stale once a command is rebuilt after it, and is then removed', async () => {
    await writeManifest(root);
    later(join(root, 'dist', 'commands', 'greet', 'all.js'));
    expect(manifestState(root)).toBe('stale');
    expect(dropStaleManifest(root)).toBe(true);
    expect(manifestState(root)).toBe('missing');
  });

  it('is stale when a command was added or removed since', async () => {
    await writeManifest(root);
    const added = join(root, 'dist', 'commands', 'bye.js');
    writeFileSync(added, command('Says goodbye.'));
    // Older than the manifest: only the list of files tells.
    later(added, -60);
    expect(manifestState(root)).toBe('stale');
    rmSync(added);
    expect(manifestState(root)).toBe('current');
    rmSync(join(root, 'dist', 'commands', 'hello.js'));
    expect(manifestState(root)).toBe('stale');
  });

  it('is stale when it cannot be read', async () => {
    await writeManifest(root);
    writeFileSync(join(root, MANIFEST_FILE), '{"commands": ');
    expect(manifestState(root)).toBe('stale');
  });

  it('is not written when a module under dist/commands is not a command', async () => {
    writeFileSync(join(root, 'dist', 'commands', 'broken.js'), "import './missing-module.js';\n");
    await expect(writeManifest(root)).rejects.toThrow(/broken/);
    expect(existsSync(join(root, MANIFEST_FILE))).toBe(false);
  });

  it('of oaa itself is written by the build and lists every built command', () => {
    expect(manifestState(cliRoot)).toBe('current');
  });
});
