/**
 * docs/declarative-connectors.md holds the manifest reference the schema generates (`npm run
 * schema -w @oaakit/plugin-rest` rewrites it).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { withReference } from './manifest/reference.js';

const DOC = new URL('../../../docs/declarative-connectors.md', import.meta.url);

describe('docs/declarative-connectors.md', () => {
  it('holds the current manifest reference (npm run schema -w @oaakit/plugin-rest writes it)', async () => {
    const text = await readFile(DOC, 'utf8');
    expect(text, 'the reference is out of date: npm run build && npm run schema -w @oaakit/plugin-rest').toBe(
      withReference(text),
    );
    for (const part of [
      '`source.auth (type: oauth2_client_credentials)`',
      '`streams.<name>.pagination (type: link)`',
    ])
      expect(text).toContain(part);
  });
});
