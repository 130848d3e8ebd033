/**
 * Writes what is generated from the manifest schema: `schema/manifest.schema.json` and the
 * reference part of docs/declarative-connectors.md. `npm run schema -w @oaakit/plugin-rest` after
 * a change to the manifest schema (the build first); tests fail while either is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { manifestJsonSchemaText } from './json-schema.js';
import { withReference } from './reference.js';

const schemaFile = fileURLToPath(new URL('../../schema/manifest.schema.json', import.meta.url));
const docFile = fileURLToPath(new URL('../../../../docs/declarative-connectors.md', import.meta.url));

writeFileSync(schemaFile, manifestJsonSchemaText());
process.stdout.write(`wrote ${schemaFile}\n`);
writeFileSync(docFile, withReference(readFileSync(docFile, 'utf8')));
process.stdout.write(`wrote the manifest reference of ${docFile}\n`);
