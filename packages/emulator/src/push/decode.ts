/** Decoding of pushed bytes: base64, gzip, UTF-8 and JSON, each failure naming the request field. */
import { constants as bufferConstants, isUtf8 } from 'node:buffer';
import { promisify } from 'node:util';
import { gunzip as gunzipCb } from 'node:zlib';
import { badField } from '../errors.js';

const gunzip = promisify(gunzipCb);

/**
 * Largest decoded payload the emulator can parse: one JavaScript string (about 512 MB on 64-bit V8).
 * The service has no such limit; payloads beyond it need a streaming parser the emulator lacks.
 */
export const MAX_PAYLOAD_BYTES = bufferConstants.MAX_STRING_LENGTH;

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

/** Gunzips `buf` or throws 400 naming `field`. */
export async function gunzipField(buf: Buffer, field: string): Promise<Buffer> {
  try {
    return await gunzip(buf, { maxOutputLength: MAX_PAYLOAD_BYTES });
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw badField(
        field,
        `decompresses to more than ${MAX_PAYLOAD_BYTES} bytes, the most the emulator can parse`,
      );
    }
    throw badField(field, `is not valid gzip data: ${(err as Error).message}`);
  }
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
