/**
 * Runs the built `oaa` binary as a user would (`node bin/run.js ...`), in a child process with a
 * clean environment: no inherited OAA_* variables, a private config directory.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The package root: `bin/`, `test-fixtures/`. */
export const CLI_ROOT = resolve(here, '../..');
export const BIN = join(CLI_ROOT, 'bin/run.js');

/** A file of `test-fixtures/`. */
export function fixture(...parts: string[]): string {
  return join(CLI_ROOT, 'test-fixtures', ...parts);
}

/** What one command did. */
export interface OaaResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of one command. */
export interface OaaOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
}

/**
 * The environment of the child: the parent's, minus every OAA_* variable and vitest's NODE_ENV (a
 * user's shell has neither), plus `extra`.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('OAA_') && k !== 'NODE_ENV' && v !== undefined) env[k] = v;
  // A login saved on this machine must not send a test's commands to a real service.
  env.OAA_CONFIG_DIR = privateConfigDir();
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

let configDir: string | undefined;
function privateConfigDir(): string {
  return (configDir ??= mkdtempSync(join(tmpdir(), 'oaa-cli-config-')));
}

/** Runs `oaa ...args` to completion. */
export function oaa(args: readonly string[], options: OaaOptions = {}): Promise<OaaResult> {
  return new Promise((resolvePromise, reject) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: options.cwd, env: cleanEnv(options.env), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : undefined;
        if (code === undefined) reject(error ?? new Error('no exit code'));
        else resolvePromise({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Runs `oaa ...args` in the background (for `emulator start`). */
export function spawnOaa(args: readonly string[], options: OaaOptions = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: cleanEnv(options.env) });
}

/** `JSON.parse` of a command's stdout. */
export function json<T>(result: OaaResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

/** A temporary directory, and its removal. */
export async function tempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
