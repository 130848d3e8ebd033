/**
 * A `fetch` call's request as a HAR request: what a recording keeps and what a replay matches. The
 * request is read without consuming what the caller hands on to the real fetch.
 */
import type { HarNameValue, HarPostData, HarRequest } from './types.js';

/** Media types whose bodies are kept as text. */
const TEXT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded|graphql))/i;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as HAR body text: UTF-8 text when they are (or the media type says so), else base64. */
export function bodyText(bytes: Uint8Array, mimeType: string): { text: string; encoding?: 'base64' } {
  if (TEXT_TYPE.test(mimeType)) return { text: new TextDecoder().decode(bytes) };
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { text: Buffer.from(bytes).toString('base64'), encoding: 'base64' };
  }
}

/** Headers as HAR name/value pairs, names lower-case as `Headers` gives them. */
export function harHeaders(headers: Headers): HarNameValue[] {
  return [...headers].map(([name, value]) => ({ name, value }));
}

/** The query parameters of a URL, decoded. */
export function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** What a `fetch` call sends, read without disturbing it. */
export interface DescribedRequest {
  request: HarRequest;
  signal: AbortSignal | undefined;
}

/** Reads a body given to `fetch` (or a `Request`'s, cloned) as HAR post data; undefined for none. */
async function postDataOf(
  body: RequestInit['body'],
  request: Request | undefined,
  contentType: string | null,
): Promise<HarPostData | undefined> {
  const mime = (fallback: string): string => contentType ?? fallback;
  if (body === undefined || body === null) {
    if (request?.body == null) return undefined;
    const bytes = new Uint8Array(await request.clone().arrayBuffer());
    const { text, encoding } = bodyText(bytes, mime('application/octet-stream'));
    return { mimeType: mime('application/octet-stream'), text, ...(encoding ? { _encoding: encoding } : {}) };
  }
  if (typeof body === 'string') return { mimeType: mime('text/plain;charset=UTF-8'), text: body };
  if (body instanceof URLSearchParams)
    return { mimeType: mime('application/x-www-form-urlencoded;charset=UTF-8'), text: body.toString() };
  let bytes: Uint8Array | undefined;
  if (body instanceof ArrayBuffer) bytes = new Uint8Array(body);
  else if (ArrayBuffer.isView(body)) bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  else if (body instanceof Blob) bytes = new Uint8Array(await body.arrayBuffer());
  if (bytes === undefined) {
    // A stream is read once, by the real fetch; form data gets its boundary there.
    return {
      mimeType: mime('application/octet-stream'),
      comment: 'body not recorded: a stream or form data',
    };
  }
  const { text, encoding } = bodyText(bytes, mime('application/octet-stream'));
  return { mimeType: mime('application/octet-stream'), text, ...(encoding ? { _encoding: encoding } : {}) };
}

/** The request of `fetch(input, init)`, as a HAR request (not yet scrubbed). */
export async function describeRequest(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<DescribedRequest> {
  const request = input instanceof Request ? input : undefined;
  const url = request ? request.url : new URL(input).href;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const headers = new Headers(init?.headers ?? request?.headers);
  const postData = await postDataOf(
    init?.body,
    init?.body == null ? request : undefined,
    headers.get('content-type'),
  );
  const bodySize =
    postData?.text === undefined
      ? 0
      : postData._encoding === 'base64'
        ? Buffer.from(postData.text, 'base64').length
        : Buffer.byteLength(postData.text);
  return {
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(headers),
      queryString: queryOf(url),
      ...(postData === undefined ? {} : { postData }),
      headersSize: -1,
      bodySize,
    },
    signal: init?.signal ?? request?.signal ?? undefined,
  };
}
