/**
 * `scripts/check-references.mjs`, which `npm run test:all` runs: comments, test names and documents
 * say in their own words what a thing checks and why, so the check refuses tracker citations and
 * references to documents the repository does not have. Each test plants files in a temporary
 * directory, runs the script on it as the build does, and reads its exit code and its
 * `file:line: why` lines. The planted citations are built at run time (`cite('issue', 12)`), so this
 * file itself cites nothing.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCheck, temporaryTrees } from './check-harness.js';
import type { CheckResult } from './check-harness.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-references.mjs', import.meta.url));

/** A tracker citation such as the check refuses: `cite('issue', 12)`. */
const cite = (word: string, n: number, sep = ' ') => [word, n].join(sep);
const TRACKER = 'cites a tracker entry';
const MISSING = 'names a document that is not in the repository';

/** The script's result, its `file:line: "what" why` lines cut after the reason's first words. */
async function check(dir: string): Promise<CheckResult> {
  const result = await runCheck(SCRIPT, dir);
  const findings = result.findings.map((l) =>
    l.replace(/(cites a tracker entry|names a document that is not in the repository);.*/, '$1'),
  );
  return { ...result, findings };
}

/** A temporary tree holding `files` (path -> content). */
const tree = temporaryTrees('oaa-references-');

describe('the reference check', () => {
  it('refuses a tracker citation in a comment, a test name or a document, naming the file and line', async () => {
    const dir = await tree({
      'src/limits.test.ts': `import { it } from 'vitest';
// see ${cite('issue', 12)}
it('refuses a long line (${cite('defect', 4)})', () => {});
it('refuses a long value', () => {});
`,
      'docs/guide.md': `# Guide\n\nThe limits came with ${cite('Issue', 9, ' #')}.\n`,
    });
    const result = await check(dir);
    expect(result.code).toBe(1);
    expect(result.findings).toEqual([
      `docs/guide.md:3: "${cite('Issue', 9, ' #')}" ${TRACKER}`,
      `src/limits.test.ts:2: "${cite('issue', 12)}" ${TRACKER}`,
      `src/limits.test.ts:3: "${cite('defect', 4)}" ${TRACKER}`,
    ]);
  });

  it('refuses a document the repository does not have, and accepts one it has', async () => {
    const outside = ['DESIGN', 'md'].join('.');
    const spec = ['spec', 'fields.md'].join('/');
    const dir = await tree({
      'README.md': '# Project\n',
      'docs/other.md': '# Other\n',
      'docs/guide.md': `See [the design](../${outside}), and ${spec} section 3.\nSee [the README](../README.md), docs/other.md and other.md.\n`,
      'src/a.ts': `// the decisions are in ${outside}\nexport const x = 1;\n`,
    });
    const result = await check(dir);
    expect(result.code).toBe(1);
    expect(result.findings).toEqual([
      `docs/guide.md:1: "../${outside}" ${MISSING}`,
      `docs/guide.md:1: "${spec}" ${MISSING}`,
      `src/a.ts:1: "${outside}" ${MISSING}`,
    ]);
  });

  it('reads only the comments and test names of code for documents, and accepts links to public trackers', async () => {
    const dir = await tree({
      'src/scaffold.test.ts': `import { it } from 'vitest';
// A known upstream bug: https://github.com/example/project/issues/1515
const planted = ['variants/notes.md', 'spec/x.md'];
it('copies the files it is given', () => expect(planted).toHaveLength(2));
`,
    });
    const result = await check(dir);
    expect(result.findings).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /1 files checked, no tracker citation and no document outside the repository/,
    );
  });
});
