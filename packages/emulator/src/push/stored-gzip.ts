/**
 * The stored copy of a pushed payload (its gzip bytes, kept with the submission for incremental
 * pushes and digested for DATASOURCE_PARSED_NO_CHANGE), in pieces.
 */
import { createHash } from 'node:crypto';

/**
 * A pushed payload's stored copy (gzip bytes) in pieces, each read when reached: a multipart
 * upload's chunks come from SQLite one at a time, so storing and digesting it never holds it all.
 */
export interface StoredGzip {
  /** The gzip bytes in order; may be read more than once. */
  pieces(): Iterable<Buffer>;
}

/** A stored copy held in memory (pieces of one push, or one buffer). */
export function storedGzipOf(pieces: readonly Buffer[]): StoredGzip {
  return { pieces: () => pieces };
}

/** SHA-256 (hex) of the stored copy's bytes. */
export function storedDigest(stored: StoredGzip): string {
  const h = createHash('sha256');
  for (const piece of stored.pieces()) h.update(piece);
  return h.digest('hex');
}
