/**
 * `scripts/check-self-contained.mjs`, which `npm run test:all` runs: a user's clone has only the
 * repository, so the check refuses any file that reads, runs or names something outside it. Each
 * test plants files in a temporary directory, runs the script on it as the build does, and reads its
 * exit code and its `file:line: why` lines. The planted paths are built at run time (`up(3)` for
 * three `..` segments), so this file itself names nothing outside the repository.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCheck, temporaryTrees } from './check-harness.js';
import type { CheckResult } from './check-harness.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(REPO, 'scripts/check-self-contained.mjs');

/** `n` parent-directory segments: `up(2)` is `../..`. */
const up = (n: number) => Array.from({ length: n }, () => '..').join('/');
/** How the check shows `rest` in the repository's parent directory (`beside()` is the parent). */
const beside = (rest = '') => ['<repo>', up(1), rest].filter(Boolean).join('/');

/** The script's exit code, stdout and `file:line: why` lines for `dir`. */
const check = (dir: string): Promise<CheckResult> => runCheck(SCRIPT, dir);

/** A temporary tree holding `files` (path -> content). */
const tree = temporaryTrees('oaa-self-contained-');

const IMPORTS = `import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
const here = dirname(fileURLToPath(import.meta.url));
`;

describe('the self-containment check', () => {
  it('refuses code that climbs out of the repository, naming the file, the line and where it leads', async () => {
    const dir = await tree({
      'pkg/src/reader.ts': `${IMPORTS}export const a = new URL('${up(3)}/fixtures/x.json', import.meta.url);
export const b = resolve(here, '..', '..', '..');
export const c = join(__dirname, '${up(3)}');
export const d = \`\${here}/${up(3)}/y.json\`;
export const stays = resolve(here, '..', '..');
export { e } from '${up(3)}/outside.js';
`,
    });
    const result = await check(dir);
    expect(result.code).toBe(1);
    expect(result.findings).toEqual([
      `pkg/src/reader.ts:4: new URL('${up(3)}/fixtures/x.json', import.meta.url) resolves to ${beside('fixtures/x.json')}, outside the repository`,
      `pkg/src/reader.ts:5: resolve(here, '..', '..', '..') resolves to ${beside()}, outside the repository`,
      `pkg/src/reader.ts:6: join(__dirname, '${up(3)}') resolves to ${beside()}, outside the repository`,
      `pkg/src/reader.ts:7: \`\${here}/${up(3)}/y.json\` is ${beside('y.json')}, outside the repository`,
      `pkg/src/reader.ts:9: the import \`${up(3)}/outside.js\` leads to ${beside('outside.js')}, outside the repository`,
    ]);
  });

  it('refuses such paths in package scripts, config values, Markdown links and shell scripts', async () => {
    const dir = await tree({
      'pkg/package.json': JSON.stringify({ scripts: { out: `cd ${up(2)} && ls`, in: 'cd .. && ls' } }),
      'pkg/oaa.config.yaml': `connectors:\n  - plugin: ${up(2)}/plugins/x\n  - plugin: ../plugins/y\n`,
      'docs/guide.md': `See [the spec](${up(2)}/spec.md) and [the package](../pkg/package.json).\n`,
      'scripts/run.sh': `#!/usr/bin/env bash\ncd "$(dirname "$0")/.."\nnode ${up(1)}/tool.js\nnode pkg/x.js\n`,
    });
    const result = await check(dir);
    expect(result.code).toBe(1);
    expect(result.findings).toEqual([
      `docs/guide.md:1: \`${up(2)}/spec.md\` as a link leads to ${beside('spec.md')}, outside the repository (resolved from docs)`,
      `pkg/oaa.config.yaml:2: \`${up(2)}/plugins/x\` in a value leads to ${beside('plugins/x')}, outside the repository (resolved from pkg)`,
      `pkg/package.json:1: \`${up(2)}\` in a value leads to ${beside()}, outside the repository (resolved from pkg)`,
      `scripts/run.sh:3: \`${up(1)}/tool.js\` in a command leads to ${beside('tool.js')}, outside the repository (resolved from .)`,
    ]);
  });

  it('refuses absolute paths into the workspace or a home directory, and a shared folder beside the repository', async () => {
    const workspace = ['', 'work', 'shared', 'spec.md'].join('/');
    const shared = ['shared', 'fixtures', 'app.json'].join('/');
    const home = ['', 'home', 'someone', 'notes.txt'].join('/');
    const dir = await tree({
      'notes.txt': `read ${workspace}\nthe files in ${shared}\nor ${home}\nor /usr/bin/env and /tmp/x\n`,
    });
    const result = await check(dir);
    expect(result.code).toBe(1);
    expect(result.findings).toEqual([
      'notes.txt:1: an absolute path into the /work directory, which a clone elsewhere does not have',
      `notes.txt:2: \`${shared}\` names a folder called shared that is not in the repository`,
      "notes.txt:3: an absolute path into a user's home directory, which a clone elsewhere does not have",
    ]);
  });

  it('judges a compiled file from where its output runs, and a test from where it is', async () => {
    // tsc compiles tools/bench/run.ts to tools/dist/bench/run.js, one level deeper: from there
    // three levels up is the repository. The test runs from its own directory: outside.
    const line = `${IMPORTS}export const root = resolve(here, '${up(3)}');\n`;
    const dir = await tree({
      'tools/tsconfig.json': JSON.stringify({ compilerOptions: { rootDir: '.', outDir: 'dist' } }),
      'tools/bench/run.ts': line,
      'tools/bench/run.test.ts': line,
    });
    const result = await check(dir);
    expect(result.findings).toEqual([
      `tools/bench/run.test.ts:4: resolve(here, '${up(3)}') resolves to ${beside()}, outside the repository`,
    ]);
  });

  it('passes a tree whose paths all stay inside it', async () => {
    const dir = await tree({
      'pkg/src/reader.ts': `${IMPORTS}export const fixtures = new URL('../../fixtures/', import.meta.url);
export const root = resolve(here, '..', '..');
export { x } from '../x.js';
`,
      'pkg/package.json': JSON.stringify({ scripts: { up: 'cd .. && ls' } }),
      'docs/guide.md': 'See [the reader](../pkg/src/reader.ts).\n',
      'scripts/run.sh': '#!/usr/bin/env bash\ncd "$(dirname "$0")/.."\nnode pkg/x.js\n',
    });
    const result = await check(dir);
    expect(result.findings).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/4 files checked, none reaches outside the repository/);
  });

  it('passes on the repository itself', async () => {
    const result = await check(REPO);
    expect(result.findings).toEqual([]);
    expect(result.code).toBe(0);
  });
});
