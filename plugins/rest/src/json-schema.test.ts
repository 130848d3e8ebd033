/**
 * The JSON Schema editors use (`schema/manifest.schema.json`, shipped in the package) is the one
 * the zod schema generates, and it describes every field; the shipped manifests point at it.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { manifestJsonSchemaText } from './manifest/json-schema.js';

const FILE = new URL('../schema/manifest.schema.json', import.meta.url);

describe('schema/manifest.schema.json', () => {
  it('is what the zod schema generates (npm run schema -w @oaakit/plugin-rest writes it)', async () => {
    expect(
      await readFile(FILE, 'utf8'),
      'out of date: npm run build && npm run schema -w @oaakit/plugin-rest',
    ).toBe(manifestJsonSchemaText());
  });

  it('describes every field, and knows the pagination and auth types', () => {
    const schema = JSON.parse(manifestJsonSchemaText()) as Record<string, unknown>;
    const undescribed: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const n = node as Record<string, unknown>;
      const props = n['properties'] as Record<string, Record<string, unknown>> | undefined;
      for (const [key, field] of Object.entries(props ?? {})) {
        const variants = [field, ...((field['anyOf'] as Record<string, unknown>[] | undefined) ?? [])];
        if (!variants.some((v) => typeof v['description'] === 'string')) undescribed.push(`${path}.${key}`);
        walk(field, `${path}.${key}`);
      }
      for (const key of ['anyOf', 'oneOf', 'items', 'additionalProperties'])
        for (const child of [n[key]].flat()) walk(child, path);
    };
    walk(schema, '');
    expect(undescribed).toEqual([]);
    const text = JSON.stringify(schema);
    for (const type of ['"offset"', '"page"', '"cursor"', '"link"', '"oauth2_client_credentials"', '"query"'])
      expect(text).toContain(type);
  });

  it('is named by the shipped manifests', async () => {
    const scim = await readFile(new URL('../manifests/scim.yaml', import.meta.url), 'utf8');
    expect(scim.split('\n')[0]).toBe('# yaml-language-server: $schema=../schema/manifest.schema.json');
  });
});
