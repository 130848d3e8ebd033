/** Reads a payload file: JSON, or gzip-compressed JSON (recognised by its bytes, whatever the name). */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import { OaaError, ValidationError } from '@oaakit/core';

const gunzip = promisify(gunzipCallback);

/** A payload file as read. */
export interface PayloadFile {
  path: string;
  payload: unknown;
  /** Whether the file was gzip-compressed. */
  gzip: boolean;
  /** Size of the file on disk. */
  fileBytes: number;
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Reads raw bytes of a file given on the command line, with an error that names it. */
export async function readInputFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (cause as Error).message;
    throw new OaaError(`cannot read ${path}: ${why}`, { code: 'FILE_UNREADABLE', cause, details: { path } });
  }
}

/**
 * Reads and parses a payload file. A file that is not JSON is a validation error (the service would
 * reject it too), reported as one violation on the whole payload.
 */
export async function readPayloadFile(path: string): Promise<PayloadFile> {
  const raw = await readInputFile(path);
  const gzip = isGzip(raw);
  let text: string;
  try {
    text = (gzip ? await gunzip(raw) : raw).toString('utf8');
  } catch (cause) {
    throw new ValidationError(
      `${path} is not valid gzip`,
      [{ field: '', description: `not valid gzip data: ${(cause as Error).message}` }],
      { cause },
    );
  }
  try {
    return { path, payload: JSON.parse(text.replace(/^\uFEFF/, '')), gzip, fileBytes: raw.byteLength };
  } catch (cause) {
    throw new ValidationError(
      `${path} is not JSON`,
      [{ field: '', description: `not JSON: ${(cause as Error).message}` }],
      { cause },
    );
  }
}
