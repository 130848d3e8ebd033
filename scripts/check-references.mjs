// Refuses comments, test names and documents that point the reader at something they cannot read:
// the repository speaks for itself, so it says what a thing checks and why in its own words.
//
//   node scripts/check-references.mjs [ROOT]     (ROOT: the repository, by default this one)
//
// Each text file (git-tracked, or new and not ignored) is read, line by line, for:
// - tracker citations: the word issue, defect, task, ticket or bug followed by a number (with or
//   without `#`), and "PR #" with a number. A link to a public tracker's page (its URL) is fine;
// - documents that are not in the repository: a name or path ending in `.md`, or a path under a
//   `spec` folder, that exists neither from the file's directory nor from the repository root (a
//   bare file name is fine if the repository has a file of that name somewhere). In TypeScript and
//   JavaScript only comments and test names are read for these: other strings are data (a test may
//   well create a Markdown file of its own), and a path the code reads is what check-self-contained.mjs
//   judges.
// Every finding is printed as `file:line: why`, and the exit code is 1.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { repoTextFiles } from './repo-files.mjs';

const root = realpathSync(resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..')));

const TRACKER = /\b(?:issues?|defects?|tasks?|tickets?|bugs?)\s*#?\d+\b|\bPR\s*#\d+\b/gi;
const DOCUMENT = /(?<![\w./<>{}*$@-])(?:\.{1,2}\/)*[\w][\w./-]*\.md(?![\w/-])/g;
const SPEC_PATH = /(?<![\w./<>{}*$@-])(?:\.{1,2}\/)*spec\/[\w./-]*[\w]/g;
const URL = /\b[a-z][\w+.-]*:\/\/[^\s)>\]"'`]+/gi;

const CODE = /\.[cm]?[jt]sx?$/;
const TEST_FUNCTIONS = new Set(['describe', 'it', 'test', 'suite', 'bench']);

/**
 * The lines of a code file with everything but its comments and test names blanked out, so the
 * document rule reads only what is written for a reader.
 */
function proseOf(file) {
  const sf = ts.createSourceFile(file.abs, file.text, ts.ScriptTarget.Latest, true);
  const text = file.text;
  const kept = new Map();
  const keep = (pos, end) => kept.set(pos, end);
  (function visit(node) {
    for (const r of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) keep(r.pos, r.end);
    for (const r of ts.getTrailingCommentRanges(text, node.getEnd()) ?? []) keep(r.pos, r.end);
    if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      let callee = node.expression;
      while (ts.isCallExpression(callee) || ts.isPropertyAccessExpression(callee)) callee = callee.expression;
      if (ts.isIdentifier(callee) && TEST_FUNCTIONS.has(callee.text))
        keep(node.arguments[0].getStart(sf), node.arguments[0].getEnd());
    }
    ts.forEachChild(node, visit);
  })(sf);
  const out = text.replace(/[^\n]/g, ' ').split('');
  for (const [pos, end] of kept) for (let i = pos; i < end; i++) out[i] = text[i];
  return out.join('').split(/\r?\n/);
}

const files = repoTextFiles(root);
const names = new Set(files.map((f) => basename(f.rel)));
const findings = [];

for (const file of files) {
  const dir = dirname(file.abs);
  const prose = CODE.test(file.rel) ? proseOf(file) : file.lines;
  file.lines.forEach((raw, i) => {
    const at = `${file.rel}:${i + 1}`;
    const line = raw.replace(URL, (u) => ' '.repeat(u.length));
    const written = (prose[i] ?? '').replace(URL, (u) => ' '.repeat(u.length));
    for (const m of line.matchAll(TRACKER))
      findings.push(
        `${at}: "${m[0]}" cites a tracker entry; say what this checks and why in your own words (a link to a public tracker's page is fine)`,
      );
    const documents = new Set(
      [...written.matchAll(DOCUMENT), ...written.matchAll(SPEC_PATH)].map((m) => m[0]),
    );
    for (const doc of documents) {
      const found =
        existsSync(resolve(dir, doc)) ||
        existsSync(resolve(root, doc)) ||
        (!doc.includes('/') && names.has(doc));
      if (!found)
        findings.push(
          `${at}: "${doc}" names a document that is not in the repository; say what it says, or point at one in the repository`,
        );
    }
  });
}

if (findings.length > 0) {
  for (const f of findings) console.error(f);
  console.error(
    `\n${findings.length} reference(s) a reader of the repository cannot follow. Comments, test names and ` +
      'documents say in their own words what a thing does and why.',
  );
  process.exit(1);
}
console.log(
  `references: ${files.length} files checked, no tracker citation and no document outside the repository`,
);
