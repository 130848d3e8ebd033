import { OaaError } from '@oaakit/core';
import { RESOURCE_EXHAUSTED, ServiceError, isRetryable } from './errors.js';
import type { ClientLogger } from './logger.js';

/** Retry policy of the client. Retries apply only to operations whose repetition is safe. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 5. */
  retries?: number;
  /** Base of the exponential backoff. Default 500 ms. */
  minDelayMs?: number;
  /** Cap of one backoff delay. Default 30 s. */
  maxDelayMs?: number;
  /** Wait after a `ResourceExhaused` answer without `Retry-After`; the spec says one minute. Default 60 s. */
  resourceExhaustedDelayMs?: number;
  /** A `Retry-After` longer than this ends the retries instead of waiting. Default 120 s. */
  maxRetryAfterMs?: number;
}

/** A retry policy with every field set. */
export type RetryPolicy = Required<RetryOptions>;

const DEFAULTS: RetryPolicy = {
  retries: 5,
  minDelayMs: 500,
  maxDelayMs: 30_000,
  resourceExhaustedDelayMs: 60_000,
  maxRetryAfterMs: 120_000,
};

/** Fills in defaults; `false` turns retries off. */
export function resolveRetry(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULTS, retries: 0 };
  return { ...DEFAULTS, ...options };
}

/** Milliseconds to wait from a `Retry-After` value (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before retry number `attempt` (0-based), or undefined when the error should not
 * be retried. The server's `Retry-After` wins when given; a `ResourceExhaused` answer without one
 * waits `resourceExhaustedDelayMs` (the spec's minute); anything else backs off exponentially with
 * full jitter.
 */
export function retryDelay(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.retries || !isRetryable(error)) return undefined;
  if (error instanceof ServiceError) {
    const after = parseRetryAfter(error.retryAfter);
    if (after !== undefined) return after <= policy.maxRetryAfterMs ? after : undefined;
    if (error.code === RESOURCE_EXHAUSTED) return policy.resourceExhaustedDelayMs;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** How one operation is retried. */
export interface RetryContext<T> {
  policy: RetryPolicy;
  logger: ClientLogger;
  signal?: AbortSignal | undefined;
  /**
   * Runs before each retry. A defined result ends the retries with that result: a create whose
   * answer was lost is looked up by name instead of being sent again.
   */
  recover?: ((error: unknown) => Promise<T | undefined>) | undefined;
}

function logFields(error: unknown, attempt: number, delayMs: number): Record<string, unknown> {
  const fields: Record<string, unknown> = { attempt: attempt + 1, delayMs };
  if (error instanceof OaaError) {
    fields['code'] = error.code;
    fields['method'] = error.details['method'];
    fields['path'] = error.details['path'];
  }
  if (error instanceof ServiceError) {
    fields['status'] = error.status;
    fields['requestId'] = error.requestId;
  }
  return fields;
}

/**
 * Runs `attempt` until it succeeds, the error is not retryable, or the policy's retries run out;
 * then the last error is thrown as is, so it keeps the server's code and request_id.
 */
export async function withRetry<T>(attempt: () => Promise<T>, ctx: RetryContext<T>): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const delayMs = retryDelay(error, n, ctx.policy);
      if (delayMs === undefined) throw error;
      ctx.logger.warn(logFields(error, n, delayMs), 'retrying oaa request');
      try {
        await sleep(delayMs, ctx.signal);
      } catch (reason) {
        throw new OaaError('aborted while waiting to retry', { code: 'ABORTED', cause: reason });
      }
      if (ctx.recover !== undefined) {
        const found = await ctx.recover(error);
        if (found !== undefined) return found;
      }
    }
  }
}
