import { describe, expect, it } from 'vitest';
import { OaaError, ValidationError } from '@oaakit/core';
import { errorJson, errorText } from './render-error.js';

const quiet = { secrets: [] as string[], debug: false };

describe('error rendering', () => {
  it('shows the message, every violation and the hints, and no stack', () => {
    const error = new ValidationError(
      'payload is invalid',
      [{ field: 'applications[0].name', description: 'required' }],
      { hints: ['fix it'] },
    );
    expect(errorText(error, quiet)).toBe(
      'Error: payload is invalid\n  applications[0].name: required\nHint: fix it',
    );
  });

  it('adds the stack and causes only in debug mode', () => {
    const error = new OaaError('outer', { code: 'PUSH_FAILED', cause: new Error('inner') });
    expect(errorText(error, quiet)).not.toContain('    at ');
    const debug = errorText(error, { ...quiet, debug: true });
    expect(debug).toContain('    at ');
    expect(debug).toContain('Caused by: Error: inner');
  });

  it('blanks out secrets in text and JSON, wherever they appear', () => {
    const key = 'sk_live_abcdef123456';
    const error = new OaaError(`request with ${key} failed`, {
      code: 'X',
      details: { url: `https://h/?k=${key}` },
      hints: [`not ${key}`],
    });
    const options = { secrets: [key], debug: true };
    expect(errorText(error, options)).not.toContain(key);
    expect(JSON.stringify(errorJson(error, options))).not.toContain(key);
    expect(errorJson(error, options).message).toBe('request with [REDACTED] failed');
  });
});
