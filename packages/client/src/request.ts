import { OaaError } from '@oaakit/core';
import { parseServiceError } from './error-body.js';
import type { Scrub } from './error-body.js';
import { abortedError, networkError, ServiceError, timeoutError } from './errors.js';
import type { RequestInfo } from './errors.js';
import type { ClientLogger } from './logger.js';
import type { BearerCredential } from './oauth/credential.js';

/** One HTTP call of the service interface. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path relative to the base URL, already encoded, starting with `/`. */
  path: string;
  /** Query string without the leading `?`, already encoded (see `buildQuery`). */
  query?: string;
  /** A JSON body. */
  body?: unknown;
  /** A streamed JSON body, created afresh for every attempt so retries can resend it. */
  streamBody?: () => ReadableStream<Uint8Array>;
  signal?: AbortSignal | undefined;
}

/** What a single attempt needs; built once by `createClient`. */
export interface RequestConfig {
  url: string;
  /** An API key, or a credential answering the bearer value of each request (an OAuth2 login). */
  apiKey: string | BearerCredential;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  userAgent: string;
  logger: ClientLogger;
}

/** Sends one request once and returns the parsed JSON body (`{}` when empty), or throws. */
export type Send = <T>(request: HttpRequest) => Promise<T>;

/** Replaces every occurrence of the secret with `[REDACTED]`. */
export function scrubber(secret: string): Scrub {
  return (text) => (secret === '' ? text : text.split(secret).join('[REDACTED]'));
}

/** Creates the single-attempt request function; retries are layered on top by `withRetry`. */
export function createSend(config: RequestConfig): Send {
  const base = config.url.replace(/\/+$/, '');
  const credential = config.apiKey;
  return async <T>(req: HttpRequest): Promise<T> => {
    if (typeof credential === 'string') return attempt<T>(req, credential);
    const bearer = await credential.bearer();
    try {
      return await attempt<T>(req, bearer);
    } catch (error) {
      // A token refused before its time (revoked, or a clock ahead of ours): renew once and resend.
      if (!(error instanceof ServiceError) || error.status !== 401 || credential.renew === undefined)
        throw error;
      const renewed = await credential.renew(bearer);
      if (renewed === undefined) throw error;
      return attempt<T>(req, renewed);
    }
  };

  async function attempt<T>(req: HttpRequest, bearer: string): Promise<T> {
    const scrub = scrubber(bearer);
    const pathAndQuery = req.query ? `${req.path}?${req.query}` : req.path;
    const info: RequestInfo = { method: req.method, path: scrub(pathAndQuery) };
    if (req.signal?.aborted) throw abortedError(info, req.signal.reason);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, config.timeoutMs);
    const onAbort = (): void => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const headers: Record<string, string> = {
      authorization: `Bearer ${bearer}`,
      accept: 'application/json',
      'user-agent': config.userAgent,
    };
    let body: string | ReadableStream<Uint8Array> | undefined;
    if (req.streamBody !== undefined) body = req.streamBody();
    else if (req.body !== undefined) body = JSON.stringify(req.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = Date.now();
    try {
      const init: RequestInit & { duplex?: 'half' } = {
        method: req.method,
        headers,
        signal: controller.signal,
      };
      if (body !== undefined) init.body = body;
      if (typeof body !== 'string' && body !== undefined) init.duplex = 'half';
      const res = await config.fetch(`${base}${pathAndQuery}`, init);
      const text = await res.text();
      config.logger.debug(
        { method: info.method, path: info.path, status: res.status, durationMs: Date.now() - started },
        'oaa request',
      );
      if (!res.ok) throw parseServiceError({ info, status: res.status, headers: res.headers, text, scrub });
      if (text.trim() === '') return {} as T;
      try {
        return JSON.parse(text) as T;
      } catch (cause) {
        throw new OaaError(`${info.method} ${info.path}: response is not JSON`, {
          code: 'BAD_RESPONSE',
          cause,
          details: { ...info, status: res.status },
        });
      }
    } catch (error) {
      if (error instanceof OaaError) throw error;
      if (timedOut) throw timeoutError(info, config.timeoutMs);
      if (req.signal?.aborted) throw abortedError(info, req.signal.reason);
      throw networkError(info, error);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }
}
