/**
 * HAR 1.2 (HTTP Archive), the part of it a recording of a connector's source requests uses. Field
 * names are the format's own; fields whose names start with `_` are the format's custom fields.
 */

/** A header or query parameter. */
export interface HarNameValue {
  name: string;
  value: string;
  comment?: string;
}

/** A cookie; recordings leave cookies out (their headers are scrubbed) but other tools' files have them. */
export interface HarCookie {
  name: string;
  value: string;
  path?: string;
  domain?: string;
  expires?: string;
  httpOnly?: boolean;
  secure?: boolean;
  comment?: string;
}

/** The body of a request. */
export interface HarPostData {
  mimeType: string;
  /** The body: text, or base64 when `_encoding` says so. */
  text?: string;
  params?: HarNameValue[];
  /** `base64` for a body of bytes that are not UTF-8 text (a custom field: HAR 1.2 has none for requests). */
  _encoding?: 'base64';
  comment?: string;
}

/** A request. */
export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarCookie[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  /** -1 when unknown. */
  headersSize: number;
  /** -1 when unknown. */
  bodySize: number;
  comment?: string;
}

/** The body of a response. */
export interface HarContent {
  /** Bytes of the body as the caller read it (decompressed). */
  size: number;
  compression?: number;
  mimeType: string;
  /** The body: text, or base64 when `encoding` is `base64`. */
  text?: string;
  encoding?: string;
  comment?: string;
}

/** A response. */
export interface HarResponse {
  /** 0 when the request got no answer (`_error` says why). */
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarCookie[];
  headers: HarNameValue[];
  content: HarContent;
  /** The URL the answer came from after redirects, or empty. */
  redirectURL: string;
  headersSize: number;
  bodySize: number;
  /** Why a request got no answer (status 0): the network error's message. */
  _error?: string;
  comment?: string;
}

/** Phase times of one request, in milliseconds; -1 for a phase that does not apply or is unknown. */
export interface HarTimings {
  blocked?: number;
  dns?: number;
  connect?: number;
  send: number;
  wait: number;
  receive: number;
  ssl?: number;
  comment?: string;
}

/** One request and its answer. */
export interface HarEntry {
  pageref?: string;
  /** ISO 8601 date and time the request started. */
  startedDateTime: string;
  /** Milliseconds from the request to the end of the answer's body. */
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, unknown>;
  timings: HarTimings;
  serverIPAddress?: string;
  connection?: string;
  comment?: string;
}

/** The program that wrote a HAR file. */
export interface HarCreator {
  name: string;
  version: string;
  comment?: string;
}

/** The `log` of a HAR file. */
export interface HarLog {
  version: string;
  creator: HarCreator;
  browser?: HarCreator;
  pages?: unknown[];
  entries: HarEntry[];
  /** For a recording of a run: what was recorded and how the run ended. */
  comment?: string;
}

/** A HAR file's content. */
export interface Har {
  log: HarLog;
}
