// The text files the repository checks (check-self-contained.mjs, check-references.mjs) read: in a
// git checkout, its tracked files and its new files that .gitignore does not exclude; in a plain
// directory (the checks' own tests feed them one), every file outside node_modules, dist and .git.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', '.turbo', 'coverage']);

function walk(root, dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(root, abs, out);
    } else if (entry.isFile()) out.push(relative(root, abs).split(sep).join('/'));
  }
  return out;
}

/** Paths (relative, with `/`) of the files under `root`, sorted. */
export function repoFiles(root) {
  if (existsSync(join(root, '.git'))) {
    const listed = execFileSync(
      'git',
      ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    // A file deleted in the working tree but not yet in the index is still listed: skip it.
    return [...new Set(listed.split('\0').filter((f) => f && existsSync(join(root, f))))].sort();
  }
  return walk(root, root, []).sort();
}

/** The text files under `root` (no NUL byte in their first 8 KiB), each with its lines. */
export function repoTextFiles(root) {
  const out = [];
  for (const rel of repoFiles(root)) {
    const abs = join(root, rel);
    if (!statSync(abs).isFile()) continue;
    const bytes = readFileSync(abs);
    if (bytes.subarray(0, 8192).includes(0)) continue;
    const text = bytes.toString('utf8');
    out.push({ rel, abs, text, lines: text.split(/\r?\n/) });
  }
  return out;
}
