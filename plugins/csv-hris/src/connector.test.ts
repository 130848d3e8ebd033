import { CONNECTOR_API_VERSION, ValidationError, z } from '@oaakit/core';
import { describe, expect, it } from 'vitest';
import connector, { csvHrisConfigSchema, csvHrisConnector } from './index.js';
import { fixture, testContext } from './private-test-helpers/context.js';

describe('the csv-hris connector', () => {
  it('declares an hris connector of the current contract, as the default and a named export', () => {
    expect(connector).toBe(csvHrisConnector);
    expect(connector).toMatchObject({ id: 'csv-hris', template: 'hris', apiVersion: CONNECTOR_API_VERSION });
    expect(connector.secrets).toBeUndefined();
  });

  it('fills in defaults for a minimal config', () => {
    expect(csvHrisConfigSchema.parse({ files: 'employees.csv' })).toEqual({
      files: 'employees.csv',
      delimiter: ',',
      columns: {},
      ignoreColumns: [],
      hrisType: 'csv_hris',
      system: { id: 'csv-hris', name: 'CSV HR export' },
      dateFormat: 'MDY',
      maxErrors: 1000,
      maxRecordBytes: 1024 * 1024,
      maxFieldBytes: 64 * 1024,
    });
  });

  it('refuses configs that cannot work, naming the setting', () => {
    const issues = (config: unknown) =>
      csvHrisConfigSchema.safeParse(config).error?.issues.map((i) => i.path.join('.'));
    expect(issues({})).toEqual(['files']);
    expect(issues({ files: [] })).toEqual(['files']);
    expect(issues({ files: 'a.csv', delimiter: '"' })).toEqual(['delimiter']);
    expect(issues({ files: 'a.csv', columns: { manager: 'Boss' } })).toEqual(['columns']);
    expect(issues({ files: 'a.csv', columns: { employee_number: null } })).toEqual([
      'columns.employee_number',
    ]);
    expect(issues({ files: 'a.csv', system: { id: 'x', name: 'y', idpProviders: ['ldap'] } })).toEqual([
      'system.idpProviders.0',
    ]);
    expect(issues({ files: 'a.csv', booleanWords: { true: ['ja'] } })).toEqual(['booleanWords.false']);
    expect(issues({ files: 'a.csv', maxRecordBytes: 0, maxFieldBytes: 2 ** 30 })).toEqual([
      'maxRecordBytes',
      'maxFieldBytes',
    ]);
  });

  it('has a config schema that converts to JSON Schema (for docs and editors)', () => {
    const schema = z.toJSONSchema(csvHrisConfigSchema, { io: 'input' }) as {
      required?: string[];
      properties: Record<string, unknown>;
    };
    expect(schema.required).toEqual(['files']);
    expect(Object.keys(schema.properties)).toContain('columns');
  });

  it('checks that the files are readable and have the columns it needs, reading only their headers', async () => {
    await expect(
      connector.check!(testContext({ files: [fixture('employees-good.csv'), fixture('bad-date.csv')] })),
    ).resolves.toBeUndefined();
    const error = await connector.check!(testContext({ files: fixture('bad-missing-column.csv') })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).violations).toEqual([
      {
        field: `${fixture('bad-missing-column.csv')}:1:last_name`,
        description: expect.stringContaining('missing'),
      },
    ]);
  });
});
