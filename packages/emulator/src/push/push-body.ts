/**
 * The body of a `:push` as it arrives: a stream between the socket and the framework's JSON parser
 * that lets every byte through except the characters of the top-level `json_data` string, which go
 * to a `JsonDataSink` (unescaped, base64-decoded on the fly) and are replaced by a token. The
 * framework still enforces the body limit on the bytes received (`receivedEncodedLength`), the
 * request timeout, and parses what remains (ids, compression type) with its usual errors; the
 * handler finds the decoded `json_data` by the token. The body is read before the handler waits
 * for its turn to process a payload, so a queued push does not run into the request timeout.
 */
import { randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { errorCodes } from 'fastify';
import { JsonDataSink, type JsonData } from './json-data-sink.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const KEY = 'json_data';
const ESCAPES: Record<number, number> = {
  0x22: 0x22,
  0x5c: 0x5c,
  0x2f: 0x2f,
  0x62: 0x08,
  0x66: 0x0c,
  0x6e: 0x0a,
  0x72: 0x0d,
  0x74: 0x09,
};

/** A `json_data` string taken out of a body: the token in its place, and what it held. */
export interface Diverted {
  token: string;
  data: JsonData;
}

/** The stream that diverts `json_data` out of a push body. */
export class PushBodyStream extends Transform {
  /** Bytes received from the socket, which the framework compares with the body limit. */
  receivedEncodedLength = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private key: number[] | undefined;
  private lastKey = '';
  private afterColon = false;
  /** Diverting the json_data string's characters into `sink`. */
  private sink: JsonDataSink | undefined;
  /** An unfinished `\u` escape (the hex digits so far), or a high surrogate waiting for its pair. */
  private unicode: string | undefined;
  private highSurrogate: number | undefined;
  /** What stands in the body for the json_data string that just ended. */
  private replacement = '';

  /**
   * `onDiverted` receives each json_data string taken out (the last one counts, as in JSON.parse).
   * `bodyLimit` is checked here too: the framework checks it only when bytes come out, and a
   * json_data string sent without a Content-Length lets none out until it ends.
   */
  constructor(
    private readonly onDiverted: (diverted: Diverted) => void,
    private readonly bodyLimit: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    if (this.receivedEncodedLength > this.bodyLimit) {
      this.sink = undefined;
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    try {
      this.push(this.scan(chunk));
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  private scan(chunk: Buffer): Buffer {
    const out: Buffer[] = [];
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (this.sink) {
        const end = this.divert(chunk, i);
        if (end < 0) return Buffer.concat(out);
        // The string ended at `end`: its replacement, then the closing quote, go on.
        out.push(Buffer.from(this.replacement));
        from = end;
        i = end;
        continue;
      }
      const c = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.key) this.lastKey = this.key.length <= KEY.length ? String.fromCharCode(...this.key) : '';
          this.key = undefined;
        } else if (this.key && this.key.length <= KEY.length) this.key.push(c);
        continue;
      }
      if (c === QUOTE) {
        if (this.afterColon && this.depth === 1 && this.lastKey === KEY) {
          // The json_data string starts: its characters go to the sink, a token goes on.
          this.afterColon = false;
          this.sink = new JsonDataSink();
          out.push(chunk.subarray(from, i + 1));
          from = i + 1;
          continue;
        }
        this.inString = true;
        this.key = this.depth === 1 && !this.afterColon ? [] : undefined;
        this.afterColon = false;
      } else if (c === COLON) this.afterColon = true;
      else if (c === 0x7b || c === 0x5b) {
        this.depth++;
        this.afterColon = false;
      } else if (c === 0x7d || c === 0x5d) this.depth--;
      else if (c === 0x2c) this.afterColon = false;
    }
    out.push(chunk.subarray(from));
    return Buffer.concat(out);
  }

  /**
   * Feeds the string's characters from `i` on to the sink; answers the index of the closing quote
   * (with `replacement` set), or -1 when the string goes on past this chunk.
   */
  private divert(chunk: Buffer, i: number): number {
    const sink = this.sink!;
    let from = i;
    const flush = (to: number) => {
      if (to > from) {
        this.emitPendingSurrogate(sink);
        sink.bytes(chunk.subarray(from, to));
      }
    };
    for (; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.unicode !== undefined) {
        this.unicode += String.fromCharCode(c);
        if (this.unicode.length === 4) this.unicodeDone(sink);
        from = i + 1;
        continue;
      }
      if (this.escaped) {
        this.escaped = false;
        from = i + 1;
        if (c === 0x75 /* u */) {
          this.unicode = '';
          continue;
        }
        const e = ESCAPES[c];
        if (e === undefined) throw this.invalid(`an invalid escape \\${String.fromCharCode(c)} in json_data`);
        this.emitPendingSurrogate(sink);
        sink.bytes(Buffer.of(e));
        continue;
      }
      if (c !== BACKSLASH && c !== QUOTE && c >= 0x20) continue;
      flush(i);
      from = i + 1;
      if (c < 0x20) throw this.invalid('a control character inside the json_data string');
      if (c === BACKSLASH) {
        this.escaped = true;
        continue;
      }
      // The closing quote. An empty json_data stays empty: the body's schema refuses it as before.
      this.emitPendingSurrogate(sink);
      const data = sink.end();
      this.sink = undefined;
      if (sink.length === 0) this.replacement = '';
      else {
        const token = `\u0000oaa-json-data-${randomBytes(12).toString('hex')}`;
        this.onDiverted({ token, data });
        this.replacement = JSON.stringify(token).slice(1, -1);
      }
      return i;
    }
    flush(i);
    return -1;
  }

  private unicodeDone(sink: JsonDataSink): void {
    const hex = this.unicode!;
    this.unicode = undefined;
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.invalid(`an invalid escape \\u${hex} in json_data`);
    const code = parseInt(hex, 16);
    if (code >= 0xd800 && code <= 0xdbff) {
      this.emitPendingSurrogate(sink);
      this.highSurrogate = code;
      return;
    }
    if (code >= 0xdc00 && code <= 0xdfff && this.highSurrogate !== undefined) {
      const pair = String.fromCharCode(this.highSurrogate, code);
      this.highSurrogate = undefined;
      sink.bytes(Buffer.from(pair, 'utf8'));
      return;
    }
    this.emitPendingSurrogate(sink);
    sink.bytes(Buffer.from(String.fromCharCode(code), 'utf8'));
  }

  /** A high surrogate not followed by a low one: U+FFFD, as a string with it would encode to. */
  private emitPendingSurrogate(sink: JsonDataSink): void {
    if (this.highSurrogate === undefined) return;
    this.highSurrogate = undefined;
    sink.bytes(Buffer.from('\ufffd', 'utf8'));
  }

  private invalid(what: string): Error {
    const err = new SyntaxError(`the request body is not valid JSON: ${what}`);
    (err as SyntaxError & { statusCode: number }).statusCode = 400;
    return err;
  }
}
