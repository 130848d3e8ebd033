/**
 * Writes the JSON Schemas of the payload templates and request bodies, generated from the zod
 * schemas, so editors can check hand-written payload files: `node dist/json-schema/generate.js DIR`.
 * The build runs it; the files ship in the package under `schemas/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonSchemas } from './schemas.js';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: generate.js OUTPUT_DIR\n');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
for (const [name, schema] of Object.entries(jsonSchemas())) {
  writeFileSync(join(dir, `${name}.schema.json`), `${JSON.stringify(schema, null, 2)}\n`);
}
