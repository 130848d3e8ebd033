/**
 * What the tests of the repository checks (`scripts/check-*.mjs`) share: temporary trees of
 * planted files, removed after each test, and a run of a check script on a tree as the build runs
 * it, read back as its exit code, its stdout and its `file:line: why` lines.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

/** How a check script ended. */
export interface CheckResult {
  code: number;
  stdout: string;
  /** The `file:line: why` lines of stderr. */
  findings: string[];
}

/** Runs the check script `script` on `dir` with this Node. */
export function runCheck(script: string, dir: string): Promise<CheckResult> {
  return new Promise((done) => {
    execFile(process.execPath, [script, dir], (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, stdout, findings: stderr.split('\n').filter((l) => /^\S+:\d+: /.test(l)) });
    });
  });
}

/**
 * Registers the removal of the trees after each test, in the calling test file, and answers the
 * function that makes one: a temporary directory named from `prefix`, holding `files` (path ->
 * content).
 */
export function temporaryTrees(prefix: string): (files: Record<string, string>) => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async (files) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    return dir;
  };
}
