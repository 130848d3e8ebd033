/** A `fetch` that answers from a HAR file instead of the network. */
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { describeRequest } from './request.js';
import { createScrubber } from './scrub.js';
import type { HarScrub, Scrubber } from './scrub.js';
import type { Har, HarEntry, HarPostData } from './types.js';

/** Options of {@link replayFetch}. */
export interface ReplayFetchOptions {
  /**
   * The scrubbing the recording applied (the connector's secrets, the configured fields): each
   * request is scrubbed the same way before it is matched, so one carrying a secret still matches.
   */
  scrub?: HarScrub;
  /** The HAR file's name, for the message of an unmatched request. */
  file?: string;
}

/** Statuses whose answers have no body. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);
/** Headers of the recorded transfer, not of the (decoded) body a replay answers with. */
const TRANSFER_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

function bodyKey(scrubber: Scrubber, data: HarPostData | undefined): string {
  if (data?.text === undefined) return '';
  return scrubber.postData(data).text ?? '';
}

function keyOf(scrubber: Scrubber, method: string, url: string, data: HarPostData | undefined): string {
  return `${method.toUpperCase()} ${scrubber.url(url)}\n${bodyKey(scrubber, data)}`;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function commonSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * The recorded request most like `method url`: the same method first, then the longest common start
 * of the URL, then the longest common end; of equals the one recorded last (a run that read one page
 * further than the recording is shown the last page recorded).
 */
function nearest(
  scrubber: Scrubber,
  entries: readonly HarEntry[],
  method: string,
  url: string,
): HarEntry | undefined {
  let best: HarEntry | undefined;
  let bestScore: number[] = [];
  for (const entry of entries) {
    const recorded = scrubber.url(entry.request.url);
    const score = [
      entry.request.method.toUpperCase() === method ? 1 : 0,
      commonPrefix(recorded, url),
      commonSuffix(recorded, url),
    ];
    const i = score.findIndex((v, k) => v !== bestScore[k]);
    if (best === undefined || i < 0 || (score[i] ?? 0) > (bestScore[i] ?? 0)) {
      best = entry;
      bestScore = score;
    }
  }
  return best;
}

function unmatched(
  scrubber: Scrubber,
  entries: readonly HarEntry[],
  method: string,
  url: string,
  file: string | undefined,
): OaaError {
  const where = file ?? 'the recording';
  const near = nearest(scrubber, entries, method, url);
  const nearText =
    near === undefined ? undefined : `${near.request.method.toUpperCase()} ${scrubber.url(near.request.url)}`;
  const sameRequestLine = nearText === `${method} ${url}`;
  const why =
    near === undefined
      ? `${where} holds no requests`
      : sameRequestLine
        ? `${where} has ${nearText} with another body`
        : `the nearest recorded request is ${nearText}`;
  return new OaaError(`no recorded answer for ${method} ${url} in ${where}; ${why}`, {
    code: RUNNER_ERROR_CODES.REPLAY_UNMATCHED,
    retryable: false,
    details: {
      method,
      url,
      ...(file === undefined ? {} : { file }),
      ...(nearText === undefined ? {} : { nearest: nearText }),
    },
    hints: [
      'a replay answers only the requests the recording made: record again (oaa run --record FILE) after the connector, its config or the source changed',
    ],
  });
}

function answer(entry: HarEntry, requestUrl: string): Response {
  const { response } = entry;
  if (response.status === 0) {
    // A request that got no answer when recorded fails as fetch fails without one.
    throw new TypeError('fetch failed', {
      cause: new Error(response._error ?? 'the recorded request got no answer'),
    });
  }
  const headers = new Headers();
  for (const h of response.headers) {
    if (TRANSFER_HEADERS.has(h.name.toLowerCase())) continue;
    try {
      headers.append(h.name, h.value);
    } catch {
      // A header value fetch would not have handed over (another tool's HAR): left out.
    }
  }
  const { content } = response;
  const body =
    NO_BODY.has(response.status) || content.text === undefined
      ? null
      : content.encoding === 'base64'
        ? Buffer.from(content.text, 'base64')
        : content.text;
  const res = new Response(body, { status: response.status, statusText: response.statusText, headers });
  const finalUrl = response.redirectURL === '' ? requestUrl : response.redirectURL;
  // What fetch sets on its answers; a Response made here has an empty url.
  Object.defineProperty(res, 'url', { value: finalUrl });
  Object.defineProperty(res, 'redirected', { value: response.redirectURL !== '' });
  return res;
}

/**
 * A `fetch` answering from `har` (see {@link readHar}), never the network. A request is matched by
 * method, URL and body, each scrubbed as `options.scrub` says. Entries with the same request answer
 * in recorded order; once they are used up the last one answers again (a second extract of an
 * unchanged source replays too). An entry recorded without an answer (status 0) fails as fetch
 * does, with a `TypeError`. A request the recording does not have throws `OaaError`
 * `REPLAY_UNMATCHED` (not retryable; `ctx.http` throws it as it is) naming the method, the URL
 * (scrubbed), the file and the nearest recorded request.
 *
 * @example
 * const file = 'source.har';
 * const sourceFetch = replayFetch(await readHar(file), { file, scrub: { secrets: [token] } });
 * await runConnector({ ..., sourceFetch });
 */
export function replayFetch(har: Har, options: ReplayFetchOptions = {}): typeof globalThis.fetch {
  const scrubber = createScrubber(options.scrub);
  const entries = har.log.entries;
  const queues = new Map<string, { entries: HarEntry[]; next: number }>();
  for (const entry of entries) {
    const key = keyOf(scrubber, entry.request.method, entry.request.url, entry.request.postData);
    const queue = queues.get(key);
    if (queue === undefined) queues.set(key, { entries: [entry], next: 0 });
    else queue.entries.push(entry);
  }
  const replay = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { request, signal } = await describeRequest(input, init);
    signal?.throwIfAborted();
    const queue = queues.get(keyOf(scrubber, request.method, request.url, request.postData));
    if (queue === undefined)
      throw unmatched(scrubber, entries, request.method, scrubber.url(request.url), options.file);
    const entry = queue.entries[Math.min(queue.next, queue.entries.length - 1)] as HarEntry;
    queue.next += 1;
    return answer(entry, request.url);
  };
  return replay;
}
