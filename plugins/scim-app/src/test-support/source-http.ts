/**
 * A small real `SourceHttp` for tests, standing in for the runner's: fetch, retries on 429 and 503
 * after the Retry-After the server asks for, a per-attempt timeout, and an `OaaError` carrying
 * `details.status` for other non-2xx answers.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { OaaError, type SourceHttp, type SourceRequestInit } from '@oaakit/core';

/** Milliseconds to wait for a Retry-After value (seconds or an HTTP date); 1 s when absent. */
function retryAfterMs(value: string | null): number {
  if (value === null) return 1000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - Date.now());
}

/** The helper; `waits` records each Retry-After wait it made, in milliseconds. */
export function createSourceHttp(): SourceHttp & { waits: number[] } {
  const waits: number[] = [];

  async function request(url: string | URL, init: SourceRequestInit = {}): Promise<Response> {
    const { retries = 3, timeoutMs, ...rest } = init;
    const method = rest.method ?? 'GET';
    for (let attempt = 0; ; attempt++) {
      const signals = [
        rest.signal,
        timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
      ].filter((s) => s instanceof AbortSignal);
      const response = await fetch(url, {
        ...rest,
        signal: signals.length ? AbortSignal.any(signals) : null,
      });
      if (response.ok) return response;
      await response.body?.cancel();
      const retryable = response.status === 429 || response.status === 503;
      if (retryable && attempt < retries) {
        const wait = retryAfterMs(response.headers.get('retry-after'));
        waits.push(wait);
        await sleep(wait, undefined, rest.signal ? { signal: rest.signal } : {});
        continue;
      }
      throw new OaaError(`HTTP ${response.status} from ${method} ${String(url)}`, {
        code: 'HTTP_ERROR',
        retryable,
        details: { status: response.status, url: String(url), method },
      });
    }
  }

  return {
    waits,
    request,
    async json<T = unknown>(url: string | URL, init?: SourceRequestInit): Promise<T> {
      const response = await request(url, init);
      return (await response.json()) as T;
    },
  };
}
