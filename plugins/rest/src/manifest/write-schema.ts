/**
 * Writes `schema/manifest.schema.json` (and, with `--check`, only says whether it is current):
 * `npm run schema -w @oaakit/plugin-rest` after a change to the manifest schema.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { manifestJsonSchemaText } from './json-schema.js';

const file = fileURLToPath(new URL('../../schema/manifest.schema.json', import.meta.url));
const text = manifestJsonSchemaText();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // Missing counts as out of date.
  }
  if (current !== text) {
    process.stderr.write(`${file} is out of date: npm run schema -w @oaakit/plugin-rest writes it\n`);
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
  process.stdout.write(`wrote ${file}\n`);
}
