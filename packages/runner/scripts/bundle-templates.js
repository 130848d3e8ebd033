#!/usr/bin/env node
// Copies the repository's templates/plugin and templates/manifest into this package (templates/)
// so that the published @oaakit/runner carries the templates `createPlugin` generates from;
// `--clean` removes the copy again. Meant for the package's prepack and postpack scripts: in a
// checkout the runner reads ../../templates directly, so the copy only exists while packed.
import { cp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const copy = new URL('../templates', import.meta.url);
const sources = ['plugin', 'manifest'];

await rm(copy, { recursive: true, force: true });
if (!process.argv.includes('--clean')) {
  for (const name of sources) {
    await cp(
      new URL(`../../../templates/${name}`, import.meta.url),
      new URL(`../templates/${name}`, import.meta.url),
      {
        recursive: true,
      },
    );
    process.stdout.write(`templates/${name} copied into ${packageRoot}\n`);
  }
}
