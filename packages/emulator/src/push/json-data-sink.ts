/**
 * Where the characters of a `:push` body's `json_data` string go as the body arrives (see
 * `push-body.ts`): the JSON escapes are undone, and the text is either kept as UTF-8 bytes (a plain
 * JSON payload, recognised by its first character `{` or `[`) or decoded from base64 on the fly
 * (gzip + base64), so the request never holds `json_data` as a string, nor its base64 text.
 */
import { badField } from '../errors.js';

const B64 = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_')
  B64[c.charCodeAt(0)] = 1;
/** White space as the base64 check of `decodeBase64` takes it (JavaScript's `\s`, ASCII part). */
const SPACE = new Uint8Array(256);
for (const c of ' \t\n\r\v\f') SPACE[c.charCodeAt(0)] = 1;

/** Base64 characters gathered before they are decoded (a multiple of 4). */
const GROUP_CHARS = 64 * 1024;

/** Base64 text decoded in groups of four characters as it comes, with `decodeBase64`'s checks. */
class Base64Stream {
  private padding = 0;
  private readonly out: Buffer[] = [];
  private readonly text = Buffer.allocUnsafe(GROUP_CHARS);
  private used = 0;
  private chars = 0;
  invalid = false;

  byte(c: number): void {
    if (this.invalid || SPACE[c] === 1) return;
    if (c === 0x3d /* = */) {
      if (++this.padding > 2) this.invalid = true;
      return;
    }
    if (this.padding > 0 || B64[c] !== 1) {
      this.invalid = true;
      return;
    }
    this.chars++;
    this.text[this.used++] = c === 0x2d ? 0x2b : c === 0x5f ? 0x2f : c;
    if (this.used === GROUP_CHARS) this.decode();
  }

  private decode(): void {
    if (this.used > 0) this.out.push(Buffer.from(this.text.toString('latin1', 0, this.used), 'base64'));
    this.used = 0;
  }

  /** The decoded bytes, or undefined when the text was not valid base64. */
  end(): Buffer | undefined {
    if (this.invalid) return undefined;
    this.decode();
    const bytes = Buffer.concat(this.out);
    if (bytes.length === 0 && this.chars > 0) return undefined;
    return bytes;
  }
}

/** What a `json_data` string held, once the body has arrived. */
export type JsonData =
  { kind: 'plain'; bytes: Buffer } | { kind: 'base64'; bytes: Buffer } | { kind: 'not base64' };

/** Receives the unescaped UTF-8 bytes of the `json_data` string. */
export class JsonDataSink {
  private mode: 'undecided' | 'plain' | 'base64' = 'undecided';
  private readonly plain: Buffer[] = [];
  private readonly b64 = new Base64Stream();
  private pendingSpace: number[] = [];
  /** Characters received; an empty string is left to the body's schema (`json_data` is required). */
  length = 0;

  /** Takes bytes of the string's text (escapes already undone). */
  bytes(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.length += chunk.length;
    let from = 0;
    if (this.mode === 'undecided') {
      while (from < chunk.length && SPACE[chunk[from]!] === 1) this.pendingSpace.push(chunk[from++]!);
      if (from === chunk.length) return;
      const first = chunk[from]!;
      this.mode = first === 0x7b || first === 0x5b ? 'plain' : 'base64';
      const lead = Buffer.from(this.pendingSpace);
      this.pendingSpace = [];
      if (this.mode === 'plain') this.plain.push(lead);
    }
    if (this.mode === 'plain') this.plain.push(Buffer.from(chunk.subarray(from)));
    else for (let i = from; i < chunk.length; i++) this.b64.byte(chunk[i]!);
  }

  /** The string's content. */
  end(): JsonData {
    if (this.mode === 'plain') return { kind: 'plain', bytes: Buffer.concat(this.plain) };
    const bytes = this.b64.end();
    return bytes === undefined ? { kind: 'not base64' } : { kind: 'base64', bytes };
  }
}

/** The gzip bytes of `data` for a GZIP push, or 400 naming json_data as `decodeBase64` would. */
export function gzipBytesOf(data: JsonData): Buffer {
  if (data.kind !== 'base64') throw badField('json_data', 'is not valid base64');
  return data.bytes;
}
