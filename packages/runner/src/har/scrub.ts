/**
 * What a recording leaves out: credential headers, the connector's secret values in every form a
 * request or answer may carry them in, and the values of configured fields. A replay scrubs each
 * request the same way before it looks for its recorded answer, so a request carrying a secret
 * still matches.
 */
import type { HarEntry, HarNameValue, HarPostData } from './types.js';

/** What replaces a scrubbed value. */
export const SCRUBBED = '[scrubbed]';

/** Headers whose values are always scrubbed, in requests and answers. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** What to scrub from a recording (and from each request a replay matches). */
export interface HarScrub {
  /**
   * Values replaced wherever they occur (URL, headers, bodies), with their base64, base64url,
   * URL-encoded and JSON-escaped forms: the connector's secrets.
   */
  secrets?: readonly string[];
  /**
   * Names whose values are replaced: JSON body fields at any depth, query and form parameters, and
   * headers (case-insensitive), e.g. `password` or `client_secret`.
   */
  fields?: readonly string[];
}

/** Base64 alphabets: standard and URL-safe. */
const ALPHABETS = ['base64', 'base64url'] as const;

/**
 * The base64 text of `bytes` that does not depend on their neighbours, for each of the three
 * alignments the bytes may have inside a longer base64 text (say `user:secret` of Basic auth).
 */
function alignedBase64(bytes: Buffer, alphabet: (typeof ALPHABETS)[number]): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
    // Characters holding bits of the unknown bytes before or after are cut off.
    const core = text.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    if (core.length >= 6) out.push(core);
  }
  return out;
}

/** Every form of `secret` a recording may hold, longest first. */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
  ]);
  for (const alphabet of ALPHABETS) {
    const text = bytes.toString(alphabet);
    forms.add(text);
    forms.add(text.replace(/=+$/, ''));
    for (const core of alignedBase64(bytes, alphabet)) forms.add(core);
  }
  return [...forms].filter((f) => f !== '').sort((a, b) => b.length - a.length);
}

function replaceBytes(buffer: Buffer, needle: Buffer, replacement: Buffer): Buffer {
  let at = buffer.indexOf(needle);
  if (at < 0) return buffer;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(buffer.subarray(from, at), replacement);
    from = at + needle.length;
    at = buffer.indexOf(needle, from);
  }
  parts.push(buffer.subarray(from));
  return Buffer.concat(parts);
}

/** Scrubbing by one {@link HarScrub}. */
export interface Scrubber {
  /** A text with every secret form replaced. */
  text(value: string): string;
  /** A URL with secret forms and configured query parameters' values replaced. */
  url(value: string): string;
  /** Headers with credential headers, configured headers and secret forms replaced. */
  headers(headers: readonly HarNameValue[]): HarNameValue[];
  /** A request's body. */
  postData(data: HarPostData): HarPostData;
  /** A body: configured JSON fields or form parameters, then secret forms. */
  body(text: string): string;
  /** A body of bytes, given as base64 and returned as base64. */
  base64(text: string): string;
  /** An entry as a recording keeps it. */
  entry(entry: HarEntry): HarEntry;
}

/** The {@link Scrubber} of `scrub`. */
export function createScrubber(scrub: HarScrub = {}): Scrubber {
  const forms = [
    ...new Set((scrub.secrets ?? []).filter((s) => s !== '').flatMap((s) => secretForms(s))),
  ].sort((a, b) => b.length - a.length);
  const fields = new Set(scrub.fields ?? []);
  const headerFields = new Set([...fields].map((f) => f.toLowerCase()));
  const replacement = Buffer.from(SCRUBBED);
  const byteForms = forms.map((f) => Buffer.from(f, 'utf8'));

  const text = (value: string): string => {
    let out = value;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(SCRUBBED);
    return out;
  };

  /** `a=1&b=2` with the configured parameters' values replaced; other bytes are kept as they were. */
  const params = (query: string): string => {
    if (fields.size === 0 || query === '') return query;
    return query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq < 0 ? pair : pair.slice(0, eq);
        let decoded: string;
        try {
          decoded = decodeURIComponent(name.replaceAll('+', ' '));
        } catch {
          decoded = name;
        }
        return fields.has(decoded) ? `${name}=${SCRUBBED}` : pair;
      })
      .join('&');
  };

  const url = (value: string): string => {
    const q = value.indexOf('?');
    if (q < 0) return text(value);
    const hash = value.indexOf('#', q);
    const query = hash < 0 ? value.slice(q + 1) : value.slice(q + 1, hash);
    const rest = hash < 0 ? '' : value.slice(hash);
    return text(`${value.slice(0, q + 1)}${params(query)}${rest}`);
  };

  /** JSON with the configured fields' values replaced at any depth, or the text as it was. */
  const jsonFields = (body: string): string => {
    const start = body.trimStart()[0];
    if (fields.size === 0 || (start !== '{' && start !== '[')) return body;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return body;
    }
    let changed = false;
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) for (const v of value) walk(v);
      else if (typeof value === 'object' && value !== null) {
        const record = value as Record<string, unknown>;
        for (const [k, v] of Object.entries(record)) {
          if (fields.has(k)) {
            if (v !== SCRUBBED) {
              record[k] = SCRUBBED;
              changed = true;
            }
          } else walk(v);
        }
      }
    };
    walk(parsed);
    return changed ? JSON.stringify(parsed) : body;
  };

  const body = (value: string): string => {
    const json = jsonFields(value);
    // A form body is `a=1&b=2`; anything else the parameter pass leaves as it is.
    return text(json === value && /^[^\s{["]*=/.test(value) ? params(value) : json);
  };

  const base64 = (value: string): string => {
    let bytes: Buffer = Buffer.from(value, 'base64');
    for (const form of byteForms) bytes = replaceBytes(bytes, form, replacement);
    return bytes.toString('base64');
  };

  const headers = (list: readonly HarNameValue[]): HarNameValue[] =>
    list.map((h) => {
      const name = h.name.toLowerCase();
      const value = CREDENTIAL_HEADERS.has(name) || headerFields.has(name) ? SCRUBBED : text(h.value);
      return { ...h, value };
    });

  const postData = (data: HarPostData): HarPostData => {
    const out: HarPostData = { ...data };
    if (data.text !== undefined) out.text = data._encoding === 'base64' ? base64(data.text) : body(data.text);
    if (data.params !== undefined)
      out.params = data.params.map((p) => ({
        ...p,
        value: fields.has(p.name) ? SCRUBBED : text(p.value),
      }));
    return out;
  };

  const entry = (e: HarEntry): HarEntry => {
    const { request, response } = e;
    const scrubbedUrl = url(request.url);
    const content = { ...response.content };
    if (content.text !== undefined)
      content.text = content.encoding === 'base64' ? base64(content.text) : body(content.text);
    return {
      ...e,
      request: {
        ...request,
        url: scrubbedUrl,
        headers: headers(request.headers),
        cookies: request.cookies.map((c) => ({ ...c, value: SCRUBBED })),
        queryString: request.queryString.map((p) => ({
          ...p,
          value: fields.has(p.name) ? SCRUBBED : text(p.value),
        })),
        ...(request.postData === undefined ? {} : { postData: postData(request.postData) }),
      },
      response: {
        ...response,
        headers: headers(response.headers),
        cookies: response.cookies.map((c) => ({ ...c, value: SCRUBBED })),
        content,
        redirectURL: url(response.redirectURL),
        ...(response._error === undefined ? {} : { _error: text(response._error) }),
      },
    };
  };

  return { text, url, headers, postData, body, base64, entry };
}
