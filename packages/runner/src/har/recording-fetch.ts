/** A `fetch` that records every request and its answer into a {@link HarRecorder}. */
import type { HarRecorder } from './recorder.js';
import { bodyText, describeRequest, harHeaders } from './request.js';
import type { HarEntry, HarRequest, HarResponse } from './types.js';

/** Whether a fetch failed because its caller aborted it (or its timeout did): nothing to record. */
function aborted(error: unknown, signal: AbortSignal | undefined): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return signal?.aborted === true || name === 'AbortError' || name === 'TimeoutError';
}

function failure(error: unknown): HarResponse {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const message = error instanceof Error ? error.message : String(error);
  const detail = cause instanceof Error ? `${message}: ${cause.message}` : message;
  return {
    status: 0,
    statusText: '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    content: { size: 0, mimeType: 'x-unknown' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
    _error: detail,
  };
}

function entryOf(
  request: HarRequest,
  response: HarResponse,
  started: Date,
  times: { wait: number; receive: number },
): HarEntry {
  const round = (ms: number): number => Math.round(ms * 1000) / 1000;
  return {
    startedDateTime: started.toISOString(),
    time: round(times.wait + times.receive),
    request,
    response,
    cache: {},
    timings: {
      blocked: -1,
      dns: -1,
      connect: -1,
      send: 0,
      wait: round(times.wait),
      receive: round(times.receive),
    },
  };
}

/**
 * `inner` (the real fetch, or any other) with every call recorded into `recorder`: the method, URL,
 * headers, query string and body of the request (text, JSON, `URLSearchParams`, bytes or a `Blob`;
 * a stream or form data is noted, not read), and the answer's status, headers and body (text, or
 * base64 when it is not text) with timings. The body is read from a clone, so the caller gets the
 * answer intact. A request that gets no answer is recorded with status 0 and the error
 * (`response._error`), then the error is thrown as it was; an aborted request is not recorded.
 *
 * @example
 * const recorder = new HarRecorder({ scrub: { secrets: Object.values(secrets) } });
 * await runConnector({ ..., sourceFetch: recordingFetch(fetch, recorder) });
 * await recorder.write('source.har');
 */
export function recordingFetch(
  inner: typeof globalThis.fetch,
  recorder: HarRecorder,
): typeof globalThis.fetch {
  const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const started = new Date();
    const t0 = performance.now();
    const { request, signal } = await describeRequest(input, init);
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      if (!aborted(error, signal))
        recorder.add(entryOf(request, failure(error), started, { wait: performance.now() - t0, receive: 0 }));
      throw error;
    }
    const t1 = performance.now();
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await response.clone().arrayBuffer());
    } catch (error) {
      // The body broke off: the caller reading the same body gets the same error.
      if (!aborted(error, signal))
        recorder.add(
          entryOf(request, failure(error), started, { wait: t1 - t0, receive: performance.now() - t1 }),
        );
      return response;
    }
    const mimeType = response.headers.get('content-type') ?? 'x-unknown';
    const { text, encoding } = bodyText(bytes, mimeType);
    const contentLength = Number(response.headers.get('content-length') ?? Number.NaN);
    recorder.add(
      entryOf(
        request,
        {
          status: response.status,
          statusText: response.statusText,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: harHeaders(response.headers),
          content: { size: bytes.length, mimeType, text, ...(encoding ? { encoding } : {}) },
          redirectURL: response.redirected ? response.url : '',
          headersSize: -1,
          bodySize: Number.isInteger(contentLength) ? contentLength : -1,
        },
        started,
        { wait: t1 - t0, receive: performance.now() - t1 },
      ),
    );
    return response;
  };
  return recording;
}
