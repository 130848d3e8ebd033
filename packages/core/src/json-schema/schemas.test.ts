import { describe, expect, it } from 'vitest';
import { jsonSchemas } from './schemas.js';

describe('generated JSON Schemas', () => {
  const schemas = jsonSchemas() as Record<string, any>;
  it('cover the three templates and the push bodies', () => {
    expect(Object.keys(schemas).sort()).toEqual([
      'application',
      'csv-push-request',
      'hris',
      'identity-provider',
      'multipart-request',
      'push-request',
    ]);
  });
  it('are strict, and carry the patterns, enums and lengths of the zod schemas', () => {
    const app = schemas.application;
    expect(app.additionalProperties).toBe(false);
    expect(app.required).toEqual(['applications']);
    const text = JSON.stringify(app);
    expect(text).toContain('"DataRead"');
    expect(text).toContain('^[A-Za-z][A-Za-z_]*$');
    expect(text).toContain('"maxLength":255');
    expect(text).toContain('"format":"date-time"');
    const hris = schemas.hris;
    const employee = JSON.stringify(hris);
    expect(employee).toContain('"employment_status"');
  });
});
