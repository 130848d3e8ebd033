import { describe, expect, it } from 'vitest';
import { ServiceError } from './errors.js';
import { parseRetryAfter, resolveRetry, retryDelay } from './retry.js';

function serviceError(status: number, code: string, retryAfter?: string): ServiceError {
  return new ServiceError({
    method: 'GET',
    path: '/x',
    status,
    code,
    message: 'm',
    violations: [],
    retryAfter,
  });
}

describe('retry policy', () => {
  const policy = resolveRetry({ retries: 3, minDelayMs: 100, maxDelayMs: 1000, resourceExhaustedDelayMs: 7 });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('honours Retry-After, and waits the configured time after ResourceExhaused without one', () => {
    expect(retryDelay(serviceError(429, 'TooManyRequests', '1'), 0, policy)).toBe(1000);
    expect(retryDelay(serviceError(429, 'ResourceExhaused', '2'), 0, policy)).toBe(2000);
    expect(retryDelay(serviceError(429, 'ResourceExhaused'), 0, policy)).toBe(7);
  });

  it('backs off exponentially with full jitter under the cap', () => {
    const err = serviceError(503, 'Unavailable');
    expect(retryDelay(err, 0, policy, () => 0.999)).toBe(99);
    expect(retryDelay(err, 2, policy, () => 0.999)).toBe(399);
    expect(retryDelay(err, 1, policy, () => 0)).toBe(0);
    expect(
      retryDelay(err, 2, resolveRetry({ retries: 10, minDelayMs: 100, maxDelayMs: 250 }), () => 0.999),
    ).toBe(249);
  });

  it('does not retry client errors, nor past the retry budget, nor when turned off', () => {
    expect(retryDelay(serviceError(400, 'InvalidArgument'), 0, policy)).toBeUndefined();
    expect(retryDelay(serviceError(503, 'Unavailable'), 3, policy)).toBeUndefined();
    expect(retryDelay(serviceError(503, 'Unavailable'), 0, resolveRetry(false))).toBeUndefined();
    expect(retryDelay(serviceError(429, 'TooManyRequests', '600'), 0, policy)).toBeUndefined();
  });
});
