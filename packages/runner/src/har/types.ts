/**
 * HAR 1.2 (HTTP Archive), the part of it a recording of a connector's source requests uses. Field
 * names are the format's own; fields whose names start with `_` are the format's custom fields.
 */

/** A header or query parameter. */
export interface HarNameValue {
  /** The header's name (lower-case in recordings) or the parameter's, decoded. */
  name: string;
  /** Its value, decoded for a query parameter. */
  value: string;
  /** A note of the tool that wrote the file. */
  comment?: string;
}

/** A cookie; recordings leave cookies out (their headers are scrubbed) but other tools' files have them. */
export interface HarCookie {
  /** The cookie's name. */
  name: string;
  /** Its value. */
  value: string;
  /** The path it applies to. */
  path?: string;
  /** The host it applies to. */
  domain?: string;
  /** When it expires (ISO 8601). */
  expires?: string;
  /** Whether scripts cannot read it. */
  httpOnly?: boolean;
  /** Whether it is sent over TLS only. */
  secure?: boolean;
  /** A note of the tool that wrote the file. */
  comment?: string;
}

/** The body of a request. */
export interface HarPostData {
  /** The request's `content-type`. */
  mimeType: string;
  /** The body: text, or base64 when `_encoding` says so. */
  text?: string;
  /** The body's parameters, as some tools write a form instead of `text`. */
  params?: HarNameValue[];
  /** `base64` for a body of bytes that are not UTF-8 text (a custom field: HAR 1.2 has none for requests). */
  _encoding?: 'base64';
  /** Why the body is not there, for a body that could not be read without consuming it. */
  comment?: string;
}

/** A request. */
export interface HarRequest {
  /** The method, upper-case. */
  method: string;
  /** The absolute URL, query included. */
  url: string;
  /** The protocol version; `HTTP/1.1` in recordings (fetch does not tell). */
  httpVersion: string;
  /** The cookies sent; empty in recordings. */
  cookies: HarCookie[];
  /** The headers the caller gave. */
  headers: HarNameValue[];
  /** The URL's query parameters. */
  queryString: HarNameValue[];
  /** The body, if the request had one. */
  postData?: HarPostData;
  /** Bytes of the request's head; -1 when unknown. */
  headersSize: number;
  /** Bytes of the request's body; 0 without one, -1 when unknown. */
  bodySize: number;
  /** A note of the tool that wrote the file. */
  comment?: string;
}

/** The body of a response. */
export interface HarContent {
  /** Bytes of the body as the caller read it (decompressed). */
  size: number;
  /** Bytes saved by compression, when known. */
  compression?: number;
  /** The answer's `content-type`. */
  mimeType: string;
  /** The body: text, or base64 when `encoding` is `base64`. */
  text?: string;
  /** `base64` for a body that is not text. */
  encoding?: string;
  /** A note of the tool that wrote the file. */
  comment?: string;
}

/** A response. */
export interface HarResponse {
  /** The HTTP status; 0 when the request got no answer (`_error` says why). */
  status: number;
  /** The status's reason phrase. */
  statusText: string;
  /** The protocol version; `HTTP/1.1` in recordings (fetch does not tell). */
  httpVersion: string;
  /** The cookies set; empty in recordings. */
  cookies: HarCookie[];
  /** The answer's headers. */
  headers: HarNameValue[];
  /** The answer's body. */
  content: HarContent;
  /** The URL the answer came from after redirects, or empty. */
  redirectURL: string;
  /** Bytes of the answer's head; -1 when unknown. */
  headersSize: number;
  /** Bytes of the body as sent (`content-length`); -1 when unknown. */
  bodySize: number;
  /** Why a request got no answer (status 0): the network error's message. */
  _error?: string;
  /** A note of the tool that wrote the file. */
  comment?: string;
}

/** Phase times of one request, in milliseconds; -1 for a phase that does not apply or is unknown. */
export interface HarTimings {
  /** Waiting for a connection. */
  blocked?: number;
  /** The DNS lookup. */
  dns?: number;
  /** Making the connection. */
  connect?: number;
  /** Sending the request. */
  send: number;
  /** Waiting for the answer's head. */
  wait: number;
  /** Reading the answer's body. */
  receive: number;
  /** The TLS handshake. */
  ssl?: number;
  /** A note of the tool that wrote the file. */
  comment?: string;
}

/** One request and its answer. */
export interface HarEntry {
  /** The page of a browser's recording the request belongs to. */
  pageref?: string;
  /** ISO 8601 date and time the request started. */
  startedDateTime: string;
  /** Milliseconds from the request to the end of the answer's body. */
  time: number;
  /** The request. */
  request: HarRequest;
  /** Its answer. */
  response: HarResponse;
  /** What a browser's cache held; empty in recordings. */
  cache: Record<string, unknown>;
  /** The phases of `time`. */
  timings: HarTimings;
  /** The server's IP address, when known. */
  serverIPAddress?: string;
  /** An id of the connection, when known. */
  connection?: string;
  /** A note of the tool that wrote the file. */
  comment?: string;
}

/** The program that wrote a HAR file. */
export interface HarCreator {
  /** Its name: `oaakit` for recordings of `oaa run --record`. */
  name: string;
  /** Its version. */
  version: string;
  /** A note of the tool that wrote the file. */
  comment?: string;
}

/** The `log` of a HAR file. */
export interface HarLog {
  /** The format's version: `1.2`. */
  version: string;
  /** The program that wrote the file. */
  creator: HarCreator;
  /** The browser, for a browser's recording. */
  browser?: HarCreator;
  /** A browser's pages. */
  pages?: unknown[];
  /** The requests and answers. */
  entries: HarEntry[];
  /** For a recording of a run: what was recorded and how the run ended. */
  comment?: string;
}

/** A HAR file's content. */
export interface Har {
  /** The recording. */
  log: HarLog;
}
