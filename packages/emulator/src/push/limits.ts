/**
 * The limits the emulator puts on the work one pushed payload may cause, beyond the spec's 100 MB
 * body. The service states none of these; they keep a small request from exhausting the emulator's
 * memory (a gzip "bomb": 0.7 MB that inflates to 500 MB). The README's "Limits and safety" lists them.
 */
import { constants as bufferConstants } from 'node:buffer';

/**
 * Largest stored payload an incremental payload can be applied to: one JavaScript string (about
 * 512 MB on 64-bit V8), since `applyIncremental` works on the stored payload in memory. Full
 * payloads are read as a stream and have no such limit.
 */
export const MAX_PAYLOAD_BYTES = bufferConstants.MAX_STRING_LENGTH;

/**
 * How many times its compressed size a gzip JSON payload may inflate to. Real payloads compress
 * 5-30 times (bench-app JSON: 24x at gzip level 6, 26x at level 9); a bomb compresses about 1000x.
 */
export const MAX_INFLATE_RATIO = 200;

/** Inflated size any gzip payload may reach whatever its ratio, so small payloads are never refused. */
export const MIN_INFLATE_ALLOWANCE = 16 * 1024 * 1024;

/** Largest CSV text of one CSV push, plain or after gzip, in bytes (64 MiB). */
export const MAX_CSV_BYTES = 64 * 1024 * 1024;

/** Most data rows (the header line not counted) in one CSV push. */
export const MAX_CSV_ROWS = 100_000;

/** Longest CSV record (one row, with any line breaks in its quoted cells), in bytes. */
export const MAX_CSV_RECORD_BYTES = 1024 * 1024;

/**
 * The most a gzip JSON payload of `compressedBytes` may inflate to: `MAX_INFLATE_RATIO` times its
 * size, at least `MIN_INFLATE_ALLOWANCE`. The payload is read as a stream, so no string limit applies.
 */
export function jsonInflateLimit(compressedBytes: number): number {
  return Math.max(MIN_INFLATE_ALLOWANCE, MAX_INFLATE_RATIO * compressedBytes);
}

/**
 * Deepest nesting of `sub_resources` below a top-level resource. Validation and ingest follow
 * sub-resources by recursion, which runs out of stack past about a thousand levels; real
 * hierarchies (folders, projects, branches) are far shallower.
 */
export const MAX_RESOURCE_DEPTH = 256;
