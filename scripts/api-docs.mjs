// `npm run docs`: the API reference of the packages (TypeDoc), as HTML in docs/api/ (not committed).
// Its entry points are the ones the public API reports are made from (`npm run api`): each
// packages/<pkg>/api-extractor*.json names a built entry (dist/index.d.ts, dist/testing/index.d.ts),
// and the reference documents its source (src/index.ts, src/testing/index.ts), so the two always
// cover the same exports. The sources of all packages are read as one program in which an import of
// another package (`@oaakit/core`, `@oaakit/emulator/testing`) is that package's source, so a type
// from one package links to its page from every other.
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, Converter, LogLevel, ReflectionKind } from 'typedoc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs', 'api');

/** The entry points of the API reports: [import specifier, source file], in package order. */
function entryPoints() {
  const entries = [];
  const packages = join(root, 'packages');
  for (const pkg of readdirSync(packages).sort()) {
    const dir = join(packages, pkg);
    const name = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;
    const configs = readdirSync(dir)
      .filter((file) => /^api-extractor(\.[\w-]+)?\.json$/.test(file))
      .sort();
    for (const file of configs) {
      const config = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      // The packages' configs name their entry only when it is not the base's dist/index.d.ts.
      const main = config.mainEntryPointFilePath ?? '<projectFolder>/dist/index.d.ts';
      const built = /^<projectFolder>\/dist\/(.+)\.d\.ts$/.exec(main);
      if (built === null) throw new Error(`${pkg}/${file}: unexpected mainEntryPointFilePath ${main}`);
      const subpath = built[1] === 'index' ? '' : `/${built[1].replace(/\/index$/, '')}`;
      entries.push([`${name}${subpath}`, join(dir, 'src', `${built[1]}.ts`)]);
    }
  }
  return entries;
}

const entries = entryPoints();
// A tsconfig for this run only: the packages' compiler options, each package import mapped to its source.
const tsconfig = join(tmpdir(), `oaakit-api-docs-${process.pid}.tsconfig.json`);
writeFileSync(
  tsconfig,
  JSON.stringify({
    extends: join(root, 'tsconfig.base.json'),
    compilerOptions: {
      noEmit: true,
      composite: false,
      incremental: false,
      declaration: false,
      declarationMap: false,
      // Beside the repository's tsconfigs they are found from there; this file is in the temp dir.
      typeRoots: [join(root, 'node_modules', '@types')],
      paths: Object.fromEntries(entries.map(([specifier, file]) => [specifier, [file]])),
    },
    files: entries.map(([, file]) => file),
  }),
);

/** Each entry's module as TypeDoc names it (its path from packages/, `index` left off) -> its import specifier. */
const moduleNames = new Map(
  entries.map(([specifier, file]) => [
    relative(join(root, 'packages'), file)
      .split(sep)
      .join('/')
      .replace(/(\/index)?\.ts$/, ''),
    specifier,
  ]),
);

try {
  const app = await Application.bootstrapWithPlugins({
    name: 'oaakit',
    entryPoints: entries.map(([, file]) => file),
    tsconfig,
    out,
    readme: 'none',
    logLevel: LogLevel.Warn,
    // As the API reports have it (api-extractor.base.json): a type that is used by an export but
    // not exported itself (ae-forgotten-export) is listed there, not an error, and links to what is
    // not exported (ae-unresolved-link) are not reported.
    validation: { notExported: false, invalidLink: false },
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const { project } = context;
    for (const module of project.getReflectionsByKind(ReflectionKind.Module)) {
      module.name = moduleNames.get(module.name) ?? module.name;
    }
    // A namespace a package re-exports from a dependency (@oaakit/core's `z`, which is zod) is that
    // dependency's API, documented by it: left out here.
    for (const namespace of project.getReflectionsByKind(ReflectionKind.Namespace)) {
      if (namespace.sources?.every((source) => source.fullFileName.includes('/node_modules/'))) {
        project.removeReflection(namespace);
      }
    }
  });
  const project = await app.convert();
  if (project !== undefined) app.validate(project);
  if (project === undefined || app.logger.hasErrors()) {
    process.exitCode = 1;
  } else {
    rmSync(out, { recursive: true, force: true });
    await app.generateDocs(project, out);
    if (app.logger.hasErrors()) process.exitCode = 1;
    else process.stdout.write(`API reference of ${entries.length} entry points in ${relative(root, out)}/\n`);
  }
} finally {
  rmSync(tsconfig, { force: true });
}
