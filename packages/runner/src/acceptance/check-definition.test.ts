import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';
import type { Connector } from '@oaakit/core';
import { describe, expect, it } from 'vitest';
import { checkDefinition } from './check-definition.js';

function connector(
  configSchema: z.ZodType,
  secrets: { name: string; description: string }[] = [],
): Connector {
  return defineConnector({
    id: 'defined',
    version: '1.0.0',
    apiVersion: CONNECTOR_API_VERSION,
    template: 'hris',
    configSchema,
    secrets,
    extract: () => ({ name: 'x', hris_type: 'x', system: { id: 'x', name: 'x' } }),
  });
}

describe('the definition check', () => {
  it('names each config field without a description once, by its path, in unions, lists and optional fields', () => {
    const auth = z.discriminatedUnion('type', [
      z.object({ type: z.literal('bearer') }),
      z.object({ type: z.literal('basic'), username: z.string().describe('user name') }),
    ]);
    const schema = z.object({
      baseUrl: z.url().describe('where the source is'),
      auth: auth.describe('how to sign in'),
      mappings: z
        .array(z.object({ from: z.string(), to: z.string().describe('target') }))
        .describe('renames'),
      limits: z.object({ pageSize: z.number().optional() }).optional().describe('paging'),
      note: z.string().nullable().describe('a note'),
    });
    const outcome = checkDefinition(connector(schema));
    expect(outcome.ok).toBe(false);
    expect(outcome.details?.['undocumentedFields']).toEqual([
      'config.auth.type',
      'config.mappings[].from',
      'config.limits.pageSize',
    ]);
  });

  it('refuses a schema that does not convert to JSON Schema, and a secret without a description', () => {
    const outcome = checkDefinition(
      connector(z.object({ when: z.date().describe('a date') }), [{ name: 'token', description: ' ' }]),
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.reason).toMatch(/the config schema does not convert to JSON Schema: .*Date/);
    expect(outcome.reason).toMatch(/secret "token" has no description/);
  });

  it('passes a documented connector', () => {
    const outcome = checkDefinition(
      connector(z.object({ files: z.array(z.string()).describe('CSV files') }), [
        { name: 'token', description: 'API token' },
      ]),
    );
    expect(outcome).toMatchObject({ ok: true, skipped: false });
    expect(outcome.reason).toBe(
      'defined 1.0.0, apiVersion 1, template hris; config schema documented; 1 secret described',
    );
  });
});
