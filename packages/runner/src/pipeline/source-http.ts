/**
 * `ctx.http`: requests to the connector's *source* system with retries (429, 5xx, network errors),
 * `Retry-After`, a per-attempt timeout and the run's abort signal. Query strings are left out of
 * messages, since sources often take tokens there. A refusal of the credentials (401, 403) is
 * `SOURCE_CREDENTIALS_REFUSED`, never retried; a replay's unmatched request (`REPLAY_UNMATCHED`,
 * thrown by the fetch of `oaa run --replay`) is thrown as it is.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseRetryAfter } from '@oaakit/client';
import { OaaError, isOaaError } from '@oaakit/core';
import type { ConnectorLogger, SourceHttp, SourceRequestInit } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { createScrubber } from '../har/scrub.js';

const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const MAX_DELAY_MS = 30_000;

/** Options of {@link createSourceHttp}. */
export interface SourceHttpOptions {
  signal: AbortSignal;
  logger: ConnectorLogger;
  fetch?: typeof globalThis.fetch;
  /** Base of the exponential backoff; default 500 ms. */
  minDelayMs?: number;
  /** The connector's secret values, scrubbed from the answer bodies errors quote. */
  secrets?: readonly string[];
}

function where(url: string | URL): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

function httpError(method: string, url: string | URL, status: number, answer: string): OaaError {
  // The start of the answer: enough to see why.
  const body = answer.slice(0, 500);
  if (status === 401 || status === 403) {
    return new OaaError(
      `${method} ${where(url)} answered ${status}: the source refused the connector's credentials`,
      {
        code: RUNNER_ERROR_CODES.SOURCE_CREDENTIALS_REFUSED,
        retryable: false,
        details: { method, url: where(url), status, body },
        hints: [
          status === 401
            ? "check the connector's secrets: the source did not accept them"
            : "the source accepted the credentials but does not allow this call: grant the connector's account read access",
        ],
      },
    );
  }
  return new OaaError(`${method} ${where(url)} answered ${status}`, {
    code: RUNNER_ERROR_CODES.SOURCE_HTTP_ERROR,
    retryable: RETRY_STATUS.has(status),
    details: { method, url: where(url), status, body },
  });
}

/** The `ctx.http` of one run. */
export function createSourceHttp(options: SourceHttpOptions): SourceHttp {
  const doFetch = options.fetch ?? globalThis.fetch;
  const minDelay = options.minDelayMs ?? 500;
  const scrub = createScrubber({ secrets: options.secrets ?? [] });

  async function attempt(url: string | URL, init: SourceRequestInit): Promise<Response> {
    const signals = [options.signal, ...(init.signal ? [init.signal] : [])];
    if (init.timeoutMs !== undefined) signals.push(AbortSignal.timeout(init.timeoutMs));
    const { retries: _r, timeoutMs: _t, ...rest } = init;
    return doFetch(url, { ...rest, signal: AbortSignal.any(signals) });
  }

  async function request(url: string | URL, init: SourceRequestInit = {}): Promise<Response> {
    const method = (init.method ?? 'GET').toUpperCase();
    const retries = init.retries ?? 3;
    for (let n = 0; ; n++) {
      let failure: OaaError;
      let wait: number | undefined;
      try {
        const res = await attempt(url, init);
        if (res.ok) return res;
        failure = httpError(method, url, res.status, scrub.text(await res.text().catch(() => '')));
        wait = parseRetryAfter(res.headers.get('retry-after') ?? undefined);
      } catch (cause) {
        options.signal.throwIfAborted();
        // A replay without this request: the recording will not have it on the next attempt either.
        if (isOaaError(cause) && cause.code === RUNNER_ERROR_CODES.REPLAY_UNMATCHED) throw cause;
        failure = new OaaError(`${method} ${where(url)} failed: ${(cause as Error).message}`, {
          code: RUNNER_ERROR_CODES.SOURCE_NETWORK_ERROR,
          retryable: true,
          cause,
          details: { method, url: where(url) },
        });
      }
      if (!failure.retryable || n >= retries) throw failure;
      const delay = Math.min(MAX_DELAY_MS, wait ?? Math.floor(Math.random() * minDelay * 2 ** n));
      options.logger.warn(
        { method, url: where(url), attempt: n + 1, delayMs: delay, code: failure.code },
        'retrying source request',
      );
      await sleep(delay, undefined, { signal: options.signal });
    }
  }

  return {
    request,
    async json<T>(url: string | URL, init: SourceRequestInit = {}): Promise<T> {
      const headers = new Headers(init.headers);
      if (!headers.has('accept')) headers.set('accept', 'application/json');
      const res = await request(url, { ...init, headers });
      return (await res.json()) as T;
    },
  };
}
