/** Decoding of pushed bytes: base64, gzip, UTF-8 and JSON, each failure naming the request field. */
import { isUtf8 } from 'node:buffer';
import { badField } from '../errors.js';
import { inflate } from './inflate.js';
import { jsonInflateLimit, MAX_INFLATE_RATIO, MAX_PAYLOAD_BYTES, MIN_INFLATE_ALLOWANCE } from './limits.js';

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
 * Gunzips a JSON payload of `compressedBytes` arriving in `pieces`, or throws 400 naming `field`.
 * It inflates as a stream and stops at `jsonInflateLimit`: a payload that compresses far better than
 * real ones do (a gzip bomb) is refused after a bounded amount of work.
 */
export async function gunzipPayload(
  pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  compressedBytes: number,
  field: string,
): Promise<Buffer> {
  const limit = jsonInflateLimit(compressedBytes);
  const tooLarge =
    limit === MAX_PAYLOAD_BYTES
      ? `decompresses to more than ${MAX_PAYLOAD_BYTES} bytes, the most the emulator can parse`
      : `decompresses to more than ${limit} bytes: to refuse gzip bombs the emulator lets gzip data inflate to ${MAX_INFLATE_RATIO} times its compressed size (at least ${MIN_INFLATE_ALLOWANCE} bytes); send a payload that compresses this well uncompressed (compression_type NONE on :push, plain JSON chunks on :parts)`;
  const out: Buffer[] = [];
  for await (const piece of inflate(pieces, { field, limit, tooLarge })) out.push(piece);
  return Buffer.concat(out);
}

/** The UTF-8 text of `buf`, or 400 naming `field`. */
export function utf8Text(buf: Buffer, field: string): string {
  if (buf.length > MAX_PAYLOAD_BYTES)
    throw badField(field, `is larger than ${MAX_PAYLOAD_BYTES} bytes, the most the emulator can parse`);
  if (!isUtf8(buf)) throw badField(field, 'is not valid UTF-8');
  return buf.toString('utf8');
}

/** Parses JSON text that must hold an object, or throws 400 naming `field`. */
export function parseJsonObject(text: string, field: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badField(field, `is not valid JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badField(field, 'must hold a JSON object (the populated template)');
  return value as Record<string, unknown>;
}
