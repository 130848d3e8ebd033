/**
 * Gunzip as a stream with a cap on the inflated bytes: the output is read piece by piece and the
 * inflation stops (and its zlib stream is destroyed) at the first byte past the cap, so a gzip
 * bomb costs at most the cap, never the size it would inflate to.
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { badField } from '../errors.js';

/** Size of the pieces the inflater hands out; larger pieces mean fewer turns of the event loop. */
const PIECE_BYTES = 64 * 1024;

export interface InflateOptions {
  /** The request field the gzip bytes came in, blamed for bad gzip data and for too much output. */
  field: string;
  /** Most inflated bytes allowed. */
  limit: number;
  /** The violation's description past the limit: say the limit and what to do instead. */
  tooLarge: string;
}

function isZlibError(err: unknown): err is Error {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

/**
 * Inflates the gzip bytes of `source` (one or more gzip members, in pieces) into pieces of at most
 * 64 KiB. Throws 400 naming `field` when the data is not gzip or inflates past `limit` bytes.
 */
export async function* inflate(
  source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  options: InflateOptions,
): AsyncGenerator<Buffer> {
  const gunzip = createGunzip({ chunkSize: PIECE_BYTES });
  // Errors of the source and of zlib both surface in the loop below, which reads from `gunzip`.
  // One source piece read ahead at most: multipart chunks are up to 100 MB each.
  pipeline(Readable.from(source, { highWaterMark: 1 }), gunzip, () => undefined);
  let size = 0;
  try {
    for await (const piece of gunzip as AsyncIterable<Buffer>) {
      size += piece.length;
      if (size > options.limit) throw badField(options.field, options.tooLarge);
      yield piece;
    }
  } catch (err) {
    if (isZlibError(err)) throw badField(options.field, `is not valid gzip data: ${err.message}`);
    throw err;
  } finally {
    gunzip.destroy();
  }
}

/** `bytes` in pieces of 64 KiB (views, not copies), so a stream reading them keeps its pace. */
export function* pieces(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) yield bytes.subarray(at, at + PIECE_BYTES);
}
