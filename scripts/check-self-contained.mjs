// Refuses any file of the repository that reads, runs or names something outside it: a user's lone
// clone has nothing beside it, so a test, script or build step that climbs out of the repository
// fails there (or, worse, passes only on the machine that has the folder).
//
//   node scripts/check-self-contained.mjs [ROOT]     (ROOT: the repository, by default this one)
//
// Each text file (git-tracked, or new and not ignored) is read for:
// - relative paths that leave ROOT, worked out from where they are resolved:
//   - TypeScript and JavaScript, parsed: `new URL('../..', import.meta.url)`, `resolve(here, '..')`,
//     `join(__dirname, '../..')`, `dirname(fileURLToPath(import.meta.url))` and constants built from
//     them, import specifiers, and other string literals (from the file's directory). A file that
//     tsc compiles is judged from where its output runs as well (`test/bench/x.ts` runs as
//     `test/dist/bench/x.js`): it is refused only if the path leaves ROOT from both places;
//   - JSON and YAML values (package.json scripts, tsconfig extends and references, config files),
//     Markdown link targets: from the file's directory;
//   - shell scripts: from the directory each `cd` leads to (`cd "$(dirname "$0")/.."`, `cd dir`);
// - absolute paths into the directory that holds the repository on this machine (and into the
//   workspace directory of the machine it was written on), or into a user's home directory;
// - paths into a folder called `shared` that the repository does not have (the workspace folder
//   beside the repository where it was written), and paths written from the repository's parent.
// Every finding is printed as `file:line: why`, and the exit code is 1.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { repoTextFiles } from './repo-files.mjs';

const root = realpathSync(resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..')));

/** Whether `p` (absolute) is the repository or in it. */
const inside = (p) => p === root || p.startsWith(root + sep);
/** `p` relative to the repository; a path outside it is shown from the `<repo>` marker. */
const shown = (p) =>
  inside(p) ? relative(root, p) || '.' : `<repo>/${relative(root, p).split(sep).join('/')}`;

const findings = [];
const report = (file, line, why) =>
  findings.push({ rel: file.rel, line, text: `${file.rel}:${line}: ${why}` });
const byPlace = (a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : a.line - b.line);

// ---------------------------------------------------------------------------------------------
// Rules on the text of every file.

/** Absolute paths into the directories that hold this repository, and into users' homes. */
const absolutePatterns = [
  {
    re: /(?<![\w.~$/:-])\/work\//g,
    why: 'an absolute path into the /work directory, which a clone elsewhere does not have',
  },
  {
    re: /(?<![\w.~$/:-])\/(?:home|Users)\/[\w.-]+\//g,
    why: "an absolute path into a user's home directory, which a clone elsewhere does not have",
  },
];
{
  // The directory that holds the repository on this machine: a path into it works here only. Not
  // for a top-level directory (a clone in /tmp/x would refuse every /tmp path).
  const parent = dirname(root);
  if (parent.split(sep).filter(Boolean).length >= 2) {
    const escaped = `${parent}/`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    absolutePatterns.push({
      re: new RegExp(`(?<![\\w.~$/:-])${escaped}`, 'g'),
      why: `an absolute path into ${parent}, which holds this repository on this machine only`,
    });
  }
}

function checkText(file) {
  const dir = dirname(file.abs);
  file.lines.forEach((line, i) => {
    for (const { re, why } of absolutePatterns) {
      re.lastIndex = 0;
      if (re.test(line)) report(file, i + 1, why);
    }
    for (const m of line.matchAll(/(?<![\w.@/-])shared\/[\w.@/-]*/g)) {
      const named = m[0].replace(/[.]+$/, '');
      if (!existsSync(resolve(dir, named)) && !existsSync(resolve(root, named)))
        report(file, i + 1, `\`${named}\` names a folder called shared that is not in the repository`);
    }
    for (const m of line.matchAll(/<repo>\/\.\.[^\s`'")]*/g))
      report(file, i + 1, `\`${m[0]}\` names a place beside the repository, from its parent directory`);
  });
}

// ---------------------------------------------------------------------------------------------
// Relative path tokens in strings, config values, links and shell lines.

/** The relative paths that climb (`..`, `../x`) in a piece of text. */
function climbingTokens(text) {
  return [...text.matchAll(/(?<![\w.~$@/-])\.\.(?:\/[^\s"'`;&|()<>,\]]*)?(?![\w.-])/g)].map((m) => m[0]);
}

/** Reports `token` if, resolved from `from`, it leaves the repository. */
function checkToken(file, line, token, from, context, written = token) {
  const target = resolve(from, token);
  if (!inside(target))
    report(
      file,
      line,
      `\`${written}\` ${context} leads to ${shown(target)}, outside the repository (resolved from ${shown(from)})`,
    );
}

function checkConfigValues(file) {
  const dir = dirname(file.abs);
  file.lines.forEach((line, i) => {
    // JSON: every quoted string; YAML: the line without its comment.
    const pieces = file.rel.endsWith('.json')
      ? [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1])
      : [line.replace(/(^|\s)#.*$/, '')];
    for (const piece of pieces)
      for (const t of climbingTokens(piece)) checkToken(file, i + 1, t, dir, 'in a value');
  });
}

function checkMarkdown(file) {
  const dir = dirname(file.abs);
  let fenced = false;
  file.lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const targets = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)/g)].map((m) => m[1]),
      ...[...line.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
    ];
    for (const target of targets) {
      if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
      checkToken(file, i + 1, target.replace(/[#?].*$/, ''), dir, 'as a link');
    }
  });
}

const DIRNAME_0 =
  /\$\(dirname\s+(?:--\s+)?"?\$(?:0|\{BASH_SOURCE\[0\]\}|\{BASH_SOURCE\})"?\)(\/[^\s"';&|)]*)?/g;

function checkShell(file) {
  const dir = dirname(file.abs);
  /** The directory the script is in at this line, when it is known. */
  let cwd;
  file.lines.forEach((raw, i) => {
    let line = raw.replace(/(^|\s)#.*$/, '');
    const cdDirname = /^\s*cd\s+"?\$\(dirname/.test(line);
    for (const m of line.matchAll(DIRNAME_0)) {
      const rel = m[1] ? `.${m[1]}` : '.';
      checkToken(file, i + 1, rel, dir, "from the script's directory", m[0]);
      if (cdDirname) cwd = resolve(dir, rel);
    }
    line = line.replace(DIRNAME_0, '');
    const cd = /^\s*(?:\(\s*)?cd\s+(?:"([^"$]*)"|'([^']*)'|([^\s"'$;&|)]+))\s*(?:$|[;&|)])/.exec(line);
    if (cd && !cdDirname) {
      const target = cd[1] ?? cd[2] ?? cd[3];
      if (cwd !== undefined) {
        checkToken(file, i + 1, target, cwd, 'as a cd');
        cwd = resolve(cwd, target);
      }
      line = line.slice(cd[0].length);
    } else if (!cdDirname && /^\s*(?:\(\s*)?cd\b/.test(line)) cwd = undefined; // cd "$somewhere"
    if (cwd !== undefined)
      for (const t of climbingTokens(line)) checkToken(file, i + 1, t, cwd, 'in a command');
  });
}

// ---------------------------------------------------------------------------------------------
// TypeScript and JavaScript.

const tsconfigs = new Map();
function tsconfigOf(dir) {
  for (let d = dir; inside(d); d = dirname(d)) {
    const file = join(d, 'tsconfig.json');
    if (!existsSync(file)) continue;
    if (!tsconfigs.has(file)) {
      const parsed = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'));
      tsconfigs.set(file, { dir: d, options: parsed.config?.compilerOptions ?? {} });
    }
    return tsconfigs.get(file);
  }
  return undefined;
}

/**
 * The places the code of `abs` runs from: the file itself (tests, scripts, and source that vitest
 * imports), and for a file tsc compiles, its output under outDir.
 */
function runtimeFiles(abs) {
  const out = [abs];
  if (
    !/\.[cm]?tsx?$/.test(abs) ||
    /\.test(-d)?\.[cm]?tsx?$/.test(abs) ||
    abs.includes(`${sep}private-test-helpers${sep}`)
  )
    return out;
  const config = tsconfigOf(dirname(abs));
  const { rootDir, outDir } = config?.options ?? {};
  if (!rootDir || !outDir) return out;
  const from = resolve(config.dir, rootDir);
  if (!abs.startsWith(from + sep)) return out;
  const compiled = join(resolve(config.dir, outDir), relative(from, abs)).replace(/\.([cm]?)tsx?$/, '.$1js');
  if (dirname(compiled) !== dirname(abs)) out.push(compiled);
  return out;
}

const SCRIPT_KINDS = {
  '.ts': ts.ScriptKind.TS,
  '.mts': ts.ScriptKind.TS,
  '.cts': ts.ScriptKind.TS,
  '.tsx': ts.ScriptKind.TSX,
  '.js': ts.ScriptKind.JS,
  '.mjs': ts.ScriptKind.JS,
  '.cjs': ts.ScriptKind.JS,
  '.jsx': ts.ScriptKind.JSX,
};

function checkCode(file, scriptKind) {
  const sf = ts.createSourceFile(file.abs, file.text, ts.ScriptTarget.Latest, true, scriptKind);
  const lineOf = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const textOf = (node) => {
    const t = node.getText(sf).replace(/\s+/g, ' ');
    return t.length > 90 ? `${t.slice(0, 87)}...` : t;
  };

  // Constants by name (a name declared twice is not followed), and the names node:path exports
  // under in this file (`resolve`, `join`, or what they were imported as).
  const constants = new Map();
  const pathFunctions = new Map([]);
  const pathModules = new Set();
  (function collect(node) {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const name = node.name.text;
      constants.set(name, constants.has(name) ? null : node.initializer);
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (clause && /^(node:)?path(\/posix)?$/.test(from)) {
        if (clause.name) pathModules.add(clause.name.text);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) pathModules.add(bindings.name.text);
        if (bindings && ts.isNamedImports(bindings))
          for (const el of bindings.elements) {
            const imported = (el.propertyName ?? el.name).text;
            if (imported === 'posix') pathModules.add(el.name.text);
            else pathFunctions.set(el.name.text, imported);
          }
      }
    }
    ts.forEachChild(node, collect);
  })(sf);

  /** `resolve`, `join`, `dirname`... when `callee` is node:path's, else undefined. */
  function pathFunction(callee) {
    if (ts.isIdentifier(callee)) return pathFunctions.get(callee.text);
    if (!ts.isPropertyAccessExpression(callee)) return undefined;
    const obj = callee.expression;
    const isPathModule =
      (ts.isIdentifier(obj) && pathModules.has(obj.text)) ||
      (ts.isPropertyAccessExpression(obj) &&
        obj.name.text === 'posix' &&
        ts.isIdentifier(obj.expression) &&
        pathModules.has(obj.expression.text));
    return isPathModule ? callee.name.text : undefined;
  }
  const calleeName = (callee) =>
    ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : undefined;

  const str = (s, partial = false) => ({ t: 'str', s, partial });
  const asText = (v) => (v.t === 'str' ? v.s : v.t === 'path' ? v.p : v.href);
  /** `a + b`, or a template: a path or URL followed by text stays a path or URL. */
  function concat(values) {
    let out;
    for (const v of values) {
      if (!v) return out && { ...out, partial: true };
      if (!out || (out.t === 'str' && out.s === '' && v.t !== 'str')) out = { ...v };
      else if (out.t === 'path') out.p += asText(v);
      else if (out.t === 'url') out.href += asText(v);
      else out.s += asText(v);
      if (v.partial) return { ...out, partial: true };
    }
    return out;
  }

  /** The value of `node` (a string, an absolute path or a file URL) when the file runs as `at`. */
  function evaluate(node, at, seen = new Set()) {
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isSatisfiesExpression?.(node) ||
      ts.isTypeAssertionExpression?.(node)
    )
      return evaluate(node.expression, at, seen);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return str(node.text);
    if (ts.isTemplateExpression(node)) {
      const parts = [str(node.head.text)];
      for (const span of node.templateSpans)
        parts.push(evaluate(span.expression, at, seen), str(span.literal.text));
      return concat(parts);
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
      return concat([evaluate(node.left, at, seen), evaluate(node.right, at, seen)]);
    if (ts.isIdentifier(node)) {
      if (node.text === '__dirname') return { t: 'path', p: dirname(at) };
      if (node.text === '__filename') return { t: 'path', p: at };
      const init = constants.get(node.text);
      if (!init || seen.has(init)) return undefined;
      return evaluate(init, at, new Set(seen).add(init));
    }
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      if (ts.isMetaProperty(node.expression)) {
        if (name === 'url') return { t: 'url', href: pathToFileURL(at).href };
        if (name === 'dirname') return { t: 'path', p: dirname(at) };
        if (name === 'filename') return { t: 'path', p: at };
        return undefined;
      }
      const v = evaluate(node.expression, at, seen);
      if (v?.t === 'url' && name === 'href') return v;
      if (v?.t === 'url' && name === 'pathname') return { t: 'path', p: fileURLToPath(v.href) };
      return undefined;
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
      const [specNode, baseNode] = node.arguments ?? [];
      if (!specNode) return undefined;
      const spec = evaluate(specNode, at, seen);
      const base = baseNode ? evaluate(baseNode, at, seen) : undefined;
      if (!spec || (baseNode && base?.t !== 'url' && base?.t !== 'str')) return undefined;
      try {
        const url = base ? new URL(asText(spec), asText(base)) : new URL(asText(spec));
        return url.protocol === 'file:' ? { t: 'url', href: url.href, partial: spec.partial } : undefined;
      } catch {
        return undefined;
      }
    }
    if (ts.isCallExpression(node)) {
      const args = node.arguments;
      if (args.some((a) => ts.isSpreadElement(a))) return undefined;
      const fn = pathFunction(node.expression) ?? calleeName(node.expression);
      if (fn === 'fileURLToPath' && args[0]) {
        const v = evaluate(args[0], at, seen);
        if (v?.t === 'url') return { t: 'path', p: fileURLToPath(v.href), partial: v.partial };
        return v?.t === 'path' ? v : undefined;
      }
      if (fn === 'pathToFileURL' && args[0]) {
        const v = evaluate(args[0], at, seen);
        return v?.t === 'path' ? { t: 'url', href: pathToFileURL(v.p).href } : undefined;
      }
      if (fn === 'String' && args[0]) return evaluate(args[0], at, seen);
      if (
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'toString' &&
        args.length === 0
      )
        return evaluate(node.expression.expression, at, seen);
      const pathFn = pathFunction(node.expression);
      if (pathFn === 'dirname' && args[0]) {
        const v = evaluate(args[0], at, seen);
        return v?.t === 'path' ? { t: 'path', p: dirname(v.p) } : undefined;
      }
      if ((pathFn === 'resolve' || pathFn === 'join') && args.length > 0) {
        const values = args.map((a) => evaluate(a, at, seen));
        if (values.some((v, i) => !v || v.t === 'url' || (v.partial && i < values.length - 1)))
          return undefined;
        const [first, ...rest] = values.map(asText);
        // A relative first argument is resolved from the working directory, which is not known.
        if (!first.startsWith('/')) return undefined;
        const p = pathFn === 'resolve' ? resolve(first, ...rest) : join(first, ...rest);
        return { t: 'path', p, partial: values.at(-1).partial };
      }
    }
    return undefined;
  }

  const runtimes = runtimeFiles(file.abs);
  /** Strings already judged as part of a path construction or an import. */
  const judged = new Set();
  const climbs = (v) => v?.t === 'str' && /(^|\/)\.\.(\/|$)/.test(v.s);

  /** Reports `node` if its value, on every place the file runs from, is a path outside. */
  function judge(node, what) {
    const values = runtimes.map((at) => evaluate(node, at));
    if (values.some((v) => !v || v.t === 'str')) return;
    const paths = values.map((v) => resolve(v.t === 'url' ? fileURLToPath(v.href) : v.p));
    if (paths.some(inside)) return;
    report(file, lineOf(node), `${textOf(node)} ${what} ${shown(paths[0])}, outside the repository`);
  }

  function judgeSpecifier(node) {
    judged.add(node);
    const spec = node.text;
    if (!spec.startsWith('.')) return;
    const targets = runtimes.map((at) => resolve(dirname(at), spec));
    if (targets.every((t) => !inside(t)))
      report(
        file,
        lineOf(node),
        `the import \`${spec}\` leads to ${shown(targets[0])}, outside the repository`,
      );
  }

  (function visit(node) {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) judgeSpecifier(node.moduleSpecifier);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      judgeSpecifier(node.arguments[0]);
    } else if (
      (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') ||
      (ts.isCallExpression(node) && ['resolve', 'join'].includes(pathFunction(node.expression)))
    ) {
      const args = node.arguments ?? [];
      for (const a of args) judged.add(a);
      if (runtimes.some((at) => args.some((a) => climbs(evaluate(a, at))))) judge(node, 'resolves to');
    } else if (
      (ts.isTemplateExpression(node) ||
        (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)) &&
      !judged.has(node) &&
      runtimes.some((at) => ['path', 'url'].includes(evaluate(node, at)?.t)) &&
      /(^|\/)\.\.(\/|$)/.test(node.getText(sf))
    ) {
      // A path built by concatenation: `${here}/../x`, `root + '/../x'`.
      judge(node, 'is');
      (function mark(n) {
        judged.add(n);
        ts.forEachChild(n, mark);
      })(node);
    } else if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateExpression(node)) &&
      !judged.has(node)
    ) {
      // Any other string: its climbing paths, from the file's directory.
      const text = ts.isTemplateExpression(node) ? node.head.text : node.text;
      for (const t of climbingTokens(text)) {
        const targets = runtimes.map((at) => resolve(dirname(at), t));
        if (targets.every((p) => !inside(p)))
          report(file, lineOf(node), `\`${t}\` leads to ${shown(targets[0])}, outside the repository`);
      }
    }
    ts.forEachChild(node, visit);
  })(sf);
}

// ---------------------------------------------------------------------------------------------

const files = repoTextFiles(root);
for (const file of files) {
  checkText(file);
  const ext = /\.[^./]+$/.exec(file.rel)?.[0] ?? '';
  if (SCRIPT_KINDS[ext] !== undefined) checkCode(file, SCRIPT_KINDS[ext]);
  else if (ext === '.json' || ext === '.yaml' || ext === '.yml') checkConfigValues(file);
  else if (ext === '.md') checkMarkdown(file);
  else if (ext === '.sh' || /^#!.*\b(ba|z)?sh\b/.test(file.lines[0] ?? '')) checkShell(file);
}

if (findings.length > 0) {
  for (const f of findings.sort(byPlace)) console.error(f.text);
  console.error(
    `\n${findings.length} place(s) read or name something outside the repository. A user's clone has only ` +
      'the repository: keep fixtures, scripts and documents inside it and refer to them by a path that stays in it.',
  );
  process.exit(1);
}
console.log(`self-contained: ${files.length} files checked, none reaches outside the repository`);
