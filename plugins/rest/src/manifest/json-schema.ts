/**
 * The JSON Schema of the manifest format, generated from the zod schema (the one definition), for
 * editors: `# yaml-language-server: $schema=...` at the top of a manifest gives completion and
 * checks as it is typed. The package ships it as `schema/manifest.schema.json`; a test keeps the
 * file what this generates (`npm run schema -w @oaakit/plugin-rest` writes it).
 */
import { z } from '@oaakit/core';
import { manifestSchema } from './schema.js';

/** The JSON Schema (draft 2020-12) of a manifest as written. */
export function manifestJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(manifestSchema, { unrepresentable: 'any', io: 'input' });
}

/** The text of `schema/manifest.schema.json`. */
export function manifestJsonSchemaText(): string {
  return `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`;
}
