import { describe, expect, it } from 'vitest';
import { ServiceError } from '@oaakit/client';
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
      code: 'PUSH_FAILED',
      details: { url: `https://h/?k=${key}` },
      hints: [`not ${key}`],
    });
    const options = { secrets: [key], debug: true };
    expect(errorText(error, options)).not.toContain(key);
    expect(JSON.stringify(errorJson(error, options))).not.toContain(key);
    expect(errorJson(error, options).message).toBe('request with [REDACTED] failed');
  });

  it('shows the violations and the request id of an error that wraps the service error', () => {
    const error = new OaaError('connector "hr": the service refused the provider "HR/EU": ...', {
      code: 'TARGET_REFUSED',
      details: {
        requestId: 'req-1',
        violations: [{ field: 'name', description: 'must be letters' }],
      },
      hints: ['change `provider`'],
    });
    expect(errorText(error, quiet).split('\n').slice(1)).toEqual([
      '  name: must be letters',
      'Hint: change `provider`',
    ]);
    expect(errorJson(error, quiet)).toMatchObject({
      code: 'TARGET_REFUSED',
      exitCode: 5,
      requestId: 'req-1',
      violations: [{ field: 'name', description: 'must be letters' }],
    });
  });

  it('says which key to replace when the service refuses it, and what a 403 needs', () => {
    const refused = (status: number): ServiceError =>
      new ServiceError({
        method: 'GET',
        path: '/api/v1/providers/custom',
        status,
        code: status === 401 ? 'Unauthenticated' : 'PermissionDenied',
        message: 'no',
        requestId: 'req-2',
        violations: [],
      });
    expect(errorJson(refused(401), { ...quiet, keySource: 'env' })).toMatchObject({
      exitCode: 5,
      requestId: 'req-2',
      hints: [
        'the key in OAA_API_KEY was refused: it is wrong, expired or revoked; set OAA_API_KEY to a current key, or unset it to use the key of `oaa auth login`',
      ],
    });
    expect(errorJson(refused(401), { ...quiet, keySource: 'keychain' }).hints[0]).toContain(
      'run `oaa auth login` again with a current key',
    );
    expect(errorJson(refused(403), { ...quiet, keySource: 'flag' }).hints[0]).toBe(
      "the key given with --api-key is valid, but its role does not allow this call: use a key with a role that does (the service's message names the roles it allows)",
    );
    const wrapped = new OaaError('connector "hr": the service refused the API key', {
      code: 'CREDENTIALS_REFUSED',
      details: { status: 401 },
    });
    expect(errorJson(wrapped, { ...quiet, keySource: 'config' }).hints).toEqual([
      "the key of the config file's target.credential was refused: it is wrong, expired or revoked; point target.credential at a current key",
    ]);
    expect(errorJson(new OaaError('x', { code: 'PUSH_FAILED' }), quiet).hints).toEqual([]);
  });
});
