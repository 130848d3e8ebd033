import { describe, expect, it } from 'vitest';
import { ServiceError } from '@oaakit/client';
import { OaaError, ValidationError } from '@oaakit/core';
import { EXIT, exitCodeOf } from './exit-codes.js';

const SERVICE_CODES: Readonly<Record<number, string>> = {
  400: 'InvalidArgument',
  401: 'Unauthenticated',
  403: 'PermissionDenied',
  404: 'NotFound',
};

function serviceError(
  status: number,
  violations: { field: string; description: string }[] = [],
): ServiceError {
  return new ServiceError({
    method: 'POST',
    path: '/x',
    status,
    code: SERVICE_CODES[status] ?? 'Unavailable',
    message: 'no',
    violations,
  });
}

describe('exitCodeOf', () => {
  it('maps each kind of failure to its own code', () => {
    expect(exitCodeOf(new ValidationError('bad', [{ field: 'a', description: 'b' }]))).toBe(EXIT.VALIDATION);
    expect(exitCodeOf(new OaaError('guard', { code: 'DELETION_GUARD' }))).toBe(EXIT.GUARD);
    expect(exitCodeOf(new OaaError('push', { code: 'PUSH_FAILED' }))).toBe(EXIT.SERVICE);
    expect(exitCodeOf(serviceError(503))).toBe(EXIT.SERVICE);
    expect(exitCodeOf(serviceError(400, [{ field: 'applications', description: 'required' }]))).toBe(
      EXIT.VALIDATION,
    );
    expect(exitCodeOf(new OaaError('no key', { code: 'CREDENTIALS_MISSING' }))).toBe(EXIT.CONFIG);
    expect(exitCodeOf(new OaaError('x', { code: 'PAYLOAD_REFUSED' }))).toBe(EXIT.VALIDATION);
    expect(exitCodeOf(new OaaError('x', { code: 'TARGET_REFUSED' }))).toBe(EXIT.CONFIG);
    expect(exitCodeOf(new OaaError('x', { code: 'CREDENTIALS_REFUSED' }))).toBe(EXIT.CONFIG);
    expect(exitCodeOf(new OaaError('warn', { code: 'WARNINGS' }))).toBe(EXIT.WARNINGS);
    expect(exitCodeOf(new OaaError('x', { code: 'PROVIDER_NOT_FOUND' }))).toBe(EXIT.NOT_FOUND);
    expect(exitCodeOf(new OaaError('x', { code: 'EXTRACT_FAILED' }))).toBe(EXIT.CONNECTOR);
    expect(exitCodeOf(new OaaError('x', { code: 'CHECK_FAILED' }))).toBe(EXIT.CONNECTOR);
    expect(exitCodeOf(new OaaError('x', { code: 'SOURCE_CREDENTIALS_REFUSED' }))).toBe(EXIT.CONNECTOR);
    expect(exitCodeOf(new OaaError('x', { code: 'REPLAY_UNMATCHED' }))).toBe(EXIT.CONNECTOR);
    expect(exitCodeOf(new OaaError('x', { code: 'HAR_INVALID' }))).toBe(EXIT.USAGE);
    expect(exitCodeOf(new OaaError('x', { code: 'ACCEPTANCE_FAILED' }))).toBe(EXIT.ACCEPTANCE);
    expect(exitCodeOf(new OaaError('x', { code: 'STATE_LOCKED' }))).toBe(EXIT.STATE);
    expect(exitCodeOf(new OaaError<string>('x', { code: 'SOMETHING_NEW' }))).toBe(EXIT.ERROR);
    expect(exitCodeOf(new Error('bug'))).toBe(EXIT.ERROR);
  });

  // A refusal of what the user gave, or of the key, is not a failure of the service: the exit code
  // tells the user what to fix.
  it('maps a service error by its status: input refused 2, key refused 5, anything else 4', () => {
    expect(exitCodeOf(serviceError(400))).toBe(EXIT.VALIDATION);
    expect(exitCodeOf(serviceError(401))).toBe(EXIT.CONFIG);
    expect(exitCodeOf(serviceError(403))).toBe(EXIT.CONFIG);
    expect(exitCodeOf(serviceError(404))).toBe(EXIT.SERVICE);
    expect(exitCodeOf(serviceError(500))).toBe(EXIT.SERVICE);
  });

  it('gives every category a distinct code', () => {
    const codes = Object.values(EXIT);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
