#!/usr/bin/env node
// Copies the repository's templates/plugin into this package (templates/plugin) so that the
// published @oaakit/runner carries the template `createPlugin` generates from; `--clean` removes
// the copy again. Meant for the package's prepack and postpack scripts: in a checkout the runner
// reads ../../templates/plugin directly, so the copy only exists while the package is packed.
import { cp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const copy = new URL('../templates', import.meta.url);
const source = new URL('../../../templates/plugin', import.meta.url);

await rm(copy, { recursive: true, force: true });
if (!process.argv.includes('--clean')) {
  await cp(source, new URL('../templates/plugin', import.meta.url), { recursive: true });
  process.stdout.write(`templates/plugin copied into ${packageRoot}\n`);
}
