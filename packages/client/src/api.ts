import { ServiceError } from './errors.js';
import type { ClientLogger } from './logger.js';
import type { HttpRequest, Send } from './request.js';
import { withRetry } from './retry.js';
import type { RetryPolicy } from './retry.js';

/**
 * How a call may be repeated:
 * - `safe`: repeating it has the same effect (reads, pushes that replace a submission, chunk
 *   uploads that replace the same sequence number);
 * - `delete`: safe, and a 404 on a repeated attempt means an earlier attempt (whose answer was
 *   lost) already deleted it, so it counts as done;
 * - `never`: send once;
 * - `{ recover }`: not idempotent, but `recover` can tell whether a lost attempt succeeded
 *   (a create looked up by name) before the call is sent again.
 */
export type RetryMode<T> =
  'safe' | 'delete' | 'never' | { recover: (error: unknown) => Promise<T | undefined> };

/** The request function the resource groups are written against. */
export interface Api {
  call<T>(request: HttpRequest, retry?: RetryMode<T>): Promise<T>;
  readonly policy: RetryPolicy;
  readonly logger: ClientLogger;
}

/** Layers the retry policy over the single-attempt `send`. */
export function createApi(send: Send, policy: RetryPolicy, logger: ClientLogger): Api {
  return {
    policy,
    logger,
    call<T>(request: HttpRequest, retry: RetryMode<T> = 'safe'): Promise<T> {
      if (retry === 'never') return send<T>(request);
      const context = { policy, logger, signal: request.signal };
      if (retry === 'safe') return withRetry(() => send<T>(request), context);
      if (retry === 'delete') {
        let repeated = false;
        return withRetry(async () => {
          try {
            return await send<T>(request);
          } catch (error) {
            if (repeated && error instanceof ServiceError && error.status === 404) return {} as T;
            repeated = true;
            throw error;
          }
        }, context);
      }
      return withRetry(() => send<T>(request), { ...context, recover: retry.recover });
    },
  };
}
