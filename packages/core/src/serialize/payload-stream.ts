import { pipeline } from 'node:stream';
import type { Readable, Transform } from 'node:stream';
import { createGzip } from 'node:zlib';
import { describeInvalidPayload, OaaError, ValidationError } from '../errors.js';
import type { Template } from '../schemas/templates.js';
import type { SemanticOptions } from '../validate/options.js';
import { validateAsRead, type ValidationAsRead } from '../validate/streaming.js';
import { createMemberGzip } from './gzip-members.js';
import { DEFAULT_JSON_CHUNK_SIZE, jsonChunks } from './json-chunks.js';
import { createOutputEncoder } from './output-encoder.js';
import { pump } from './pump.js';
import type { PayloadEncoding } from './output-encoder.js';

/** Compression of the JSON bytes: `gzip` for `compression_type: GZIP`. */
export type PayloadCompression = 'gzip' | 'none';

export interface PayloadStreamOptions {
  /** Default `gzip`. */
  compression?: PayloadCompression;
  /** gzip level 0–9, default 6. */
  level?: number;
  /**
   * Default `base64` (what `json_data` holds for a gzip push). `binary` gives the raw bytes (for
   * multipart slices); `json-string` gives the escaped contents of a JSON string literal, all ASCII
   * (what `json_data` holds for an uncompressed push; only with `compression: 'none'`).
   */
  encoding?: PayloadEncoding;
  /** Bytes per JSON chunk handed to gzip (one thread-pool job each), default 1 MiB. */
  chunkSize?: number;
  /**
   * gzip on this many worker threads, in independent members of `gzipMemberBytes` (default 4 MiB)
   * each: standard multi-member gzip (RFC 1952) that every gunzip reads whole. Default 0: one zlib
   * stream on the libuv thread pool, which uses one core beside serialization. More workers help
   * when more cores are free than serialization and validation leave.
   */
  gzipWorkers?: number;
  /** Bytes of JSON per gzip member with `gzipWorkers`; default 4 MiB. */
  gzipMemberBytes?: number;
  /**
   * Validate the payload as a payload of this template while it is serialized, reading streamed
   * users and grants once for both (see `validateAsRead`). `createPayloadStream` throws a
   * `ValidationError` at once when the rest of the payload is invalid; an invalid user or grant
   * makes the stream fail with a `ValidationError` listing every violation before its last bytes,
   * so whoever receives it never gets a whole payload.
   */
  validate?: { template: Template } & SemanticOptions;
}

/** Byte counts of a payload at each stage. Live while streaming, final once the stream has ended. */
export interface PayloadByteCounts {
  /** UTF-8 bytes of the JSON text. */
  readonly jsonBytes: number;
  /** Bytes after compression (equal to `jsonBytes` without compression). */
  readonly compressedBytes: number;
  /** Bytes the stream emits, after encoding. */
  readonly outputBytes: number;
}

export interface PayloadStream {
  /** The encoded payload bytes. Destroying it stops serialization and closes the source iterables. */
  readonly stream: Readable;
  /** Live byte counters. */
  readonly counters: PayloadByteCounts;
  /** With the `validate` option: the violations, complete once the stream has ended. */
  readonly validation?: ValidationAsRead;
}

/**
 * Output buffer of zlib. A job that fills it needs a callback on the main thread to go on, so it
 * is big enough for a whole JSON chunk compressed about fourfold.
 */
const ZLIB_CHUNK_SIZE = 256 * 1024;
/** JSON chunks serialization may run ahead of compression: enough to keep gzip busy, few enough to bound memory. */
const MAX_CHUNKS_IN_FLIGHT = 3;

/**
 * Streams a payload as JSON -> gzip -> base64 (by default) with backpressure: serialization waits
 * while the consumer is slower, so memory stays bounded by a few chunks per stage whatever the
 * payload size. gzip runs on the libuv thread pool, overlapping with serialization on the main
 * thread.
 *
 * @param source a JSON value where any array may also be an `Iterable` or `AsyncIterable`
 *   (see `jsonChunks`).
 * @example
 * const { stream, counters } = createPayloadStream(payload);
 * await fetch(url, { method: 'POST', body: Readable.toWeb(stream), duplex: 'half' });
 * log.info({ gzipBytes: counters.compressedBytes });
 */
export function createPayloadStream(source: unknown, options: PayloadStreamOptions = {}): PayloadStream {
  const compression = options.compression ?? 'gzip';
  const level = options.level ?? 6;
  const encoding = options.encoding ?? 'base64';
  const chunkSize = options.chunkSize ?? DEFAULT_JSON_CHUNK_SIZE;
  checkOptions(compression, level, encoding);
  checkGzipWorkers(options);
  let validation: ValidationAsRead | undefined;
  if (options.validate) {
    const { template, ...semantic } = options.validate;
    validation = validateAsRead(template, source, semantic);
    const { errors } = validation;
    if (errors.length > 0) {
      throw new ValidationError(describeInvalidPayload(template, errors), [...errors], {
        hints: ['nothing was serialized'],
      });
    }
    source = validation.value;
  }

  const json = { bytes: 0 };
  const encoder = createOutputEncoder(encoding);
  const noop = (): void => undefined; // errors reach the consumer through `stream`
  const gzip = compression === 'gzip' ? createCompressor(level, options) : undefined;
  const stream = gzip === undefined ? encoder : pipeline(gzip, encoder, noop);
  void pump(jsonChunks(source, { chunkSize }), gzip ?? encoder, {
    maxInFlight: MAX_CHUNKS_IN_FLIGHT,
    onChunk: (chunk) => (json.bytes += chunk.length),
  });
  const counters: PayloadByteCounts = {
    get jsonBytes() {
      return json.bytes;
    },
    get compressedBytes() {
      return encoder.bytesIn;
    },
    get outputBytes() {
      return encoder.bytesOut;
    },
  };
  return validation ? { stream, counters, validation } : { stream, counters };
}

function createCompressor(level: number, options: PayloadStreamOptions): Transform {
  const workers = options.gzipWorkers ?? 0;
  if (workers <= 0) return createGzip({ level, chunkSize: ZLIB_CHUNK_SIZE });
  return createMemberGzip({
    level,
    workers,
    ...(options.gzipMemberBytes === undefined ? {} : { memberBytes: options.gzipMemberBytes }),
  });
}

/** Bounds of the gzip worker options: a few threads, members from 1 KiB to 256 MiB. */
const MAX_GZIP_WORKERS = 64;
const MEMBER_BYTES_RANGE = [1024, 256 * 1024 * 1024] as const;

function checkGzipWorkers(options: PayloadStreamOptions): void {
  const { gzipWorkers: workers = 0, gzipMemberBytes: bytes } = options;
  if (!Number.isInteger(workers) || workers < 0 || workers > MAX_GZIP_WORKERS) {
    throw new OaaError(`gzipWorkers must be an integer from 0 to ${MAX_GZIP_WORKERS}, got ${workers}`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  const [min, max] = MEMBER_BYTES_RANGE;
  if (bytes !== undefined && (!Number.isInteger(bytes) || bytes < min || bytes > max)) {
    throw new OaaError(`gzipMemberBytes must be an integer from ${min} to ${max}, got ${bytes}`, {
      code: 'INVALID_ARGUMENT',
    });
  }
}

function checkOptions(compression: PayloadCompression, level: number, encoding: PayloadEncoding): void {
  if (!Number.isInteger(level) || level < 0 || level > 9) {
    throw new OaaError(`gzip level must be an integer from 0 to 9, got ${level}`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  if (encoding === 'json-string' && compression !== 'none') {
    throw new OaaError('the json-string encoding is only for uncompressed payloads', {
      code: 'INVALID_ARGUMENT',
      hints: ["use encoding 'base64' with gzip, or compression 'none'"],
    });
  }
}
