/** Decoding of pushed bytes: base64 and gzip, each failure naming the request field (JSON: `read-payload.ts`). */
import { badField } from '../errors.js';
import { inflate } from './inflate.js';
import { jsonInflateLimit, MAX_INFLATE_RATIO, MIN_INFLATE_ALLOWANCE } from './limits.js';

const BASE64 = /^[A-Za-z0-9+/\-_\s]*={0,2}\s*$/;

/** Decodes base64 (standard or URL alphabet, white space ignored) or throws 400 naming `field`. */
export function decodeBase64(text: string, field: string): Buffer {
  if (!BASE64.test(text)) throw badField(field, 'is not valid base64');
  const buf = Buffer.from(text, 'base64');
  if (buf.length === 0 && text.trim() !== '') throw badField(field, 'is not valid base64');
  return buf;
}

/** Whether `buf` starts with the gzip magic bytes. */
export function isGzip(buf: Uint8Array): boolean {
  return buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b;
}

/**
 * Gunzips a JSON payload of `compressedBytes` arriving in `pieces`, as a stream of pieces, or
 * throws 400 naming `field`. It stops at `jsonInflateLimit`: a payload that compresses far better
 * than real ones do (a gzip bomb) is refused after a bounded amount of work.
 */
export function gunzipPayload(
  pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  compressedBytes: number,
  field: string,
): AsyncGenerator<Buffer> {
  const limit = jsonInflateLimit(compressedBytes);
  const tooLarge = `decompresses to more than ${limit} bytes: to refuse gzip bombs the emulator lets gzip data inflate to ${MAX_INFLATE_RATIO} times its compressed size (at least ${MIN_INFLATE_ALLOWANCE} bytes); send a payload that compresses this well uncompressed (compression_type NONE on :push, plain JSON chunks on :parts)`;
  return inflate(pieces, { field, limit, tooLarge });
}

/** Largest piece of a JSON string handed to the reader at once, in UTF-16 units. */
const TEXT_PIECE = 512 * 1024;

/** The UTF-8 bytes of `text` in pieces, never cutting a surrogate pair. */
export function* textPieces(text: string): Generator<Buffer> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + TEXT_PIECE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield Buffer.from(text.slice(at, end), 'utf8');
    at = end;
  }
}
