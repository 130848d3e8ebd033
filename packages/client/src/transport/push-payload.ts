import { OaaError, SEND_BODY_LIMIT_BYTES } from '@oaakit/core';
import type { PayloadStreamOptions, Violation } from '@oaakit/core';
import PQueue from 'p-queue';
import { jsonStringPieces } from '../body.js';
import { MAX_PARTS } from '../resources/parts.js';
import type { PartsApi } from '../resources/parts.js';
import type { PushApi } from '../resources/push.js';
import type { CallOptions } from '../resources/list-options.js';
import type { DataSourceRef } from '../resources/paths.js';
import type { PushWarning } from '../types.js';
import { cut } from './cut.js';
import type { ByteGroup } from './cut.js';
import { payloadBytes } from './payload-bytes.js';

/** Room left in each body for the JSON envelope around the data (ids, field names). */
const ENVELOPE_BYTES = 1024;

/** What to push and how. Give exactly one of `payload` and `stream`. */
export interface PushPayloadOptions extends DataSourceRef, CallOptions {
  /** The payload object; any array in it may be an iterable or async iterable of entities. */
  payload?: unknown;
  /** Payload bytes already serialized: gzip bytes (compression `gzip`) or JSON bytes (`none`). */
  stream?: AsyncIterable<Uint8Array>;
  /** Default `gzip`. */
  compression?: 'gzip' | 'none';
  priorityPush?: boolean;
  /** Largest request body to send. Default `SEND_BODY_LIMIT_BYTES` (the service's 100 MB); smaller values are for tests. */
  maxBodyBytes?: number;
  /** Multipart chunks in flight at once. Memory is bounded by about (concurrency + 1) chunks. Default 3. */
  concurrency?: number;
  /**
   * Validate `payload` as a payload of this template while it is serialized (core's
   * `validateAsRead`): streamed users and grants are read once. An invalid payload is never
   * pushed whole: the push fails with a `ValidationError` before the single request is sent, or
   * before a multipart upload is completed.
   */
  validate?: PayloadStreamOptions['validate'];
  /**
   * gzip the payload on this many worker threads in independent members (core's
   * `createPayloadStream` option of the same name); default 0, one zlib stream on the thread pool.
   */
  gzipWorkers?: number;
}

/** What a push did. */
export interface PushPayloadResult {
  warnings: PushWarning[];
  /** `single` for one `:push`, `multipart` for `:parts`. */
  mode: 'single' | 'multipart';
  /** Bytes of JSON text; undefined when pre-compressed bytes were given as `stream`. */
  jsonBytes: number | undefined;
  /** Bytes sent as the payload (gzip bytes, or the JSON bytes for `none`), before base64. */
  compressedBytes: number;
  /** Requests that carried payload data: 1 for a single push. */
  chunks: number;
  /** With `validate`: the warnings local validation found (the service's are in `warnings`). */
  validationWarnings?: Violation[];
}

/**
 * The payload bytes (gzip or JSON, before base64) that one request body carries when no body may
 * exceed `maxBodyBytes`: what fits once base64 (4/3) and the JSON envelope are added. A payload
 * needs `ceil(bytes / rawBytesPerBody(maxBodyBytes))` multipart chunks (at most 99).
 */
export function rawBytesPerBody(maxBodyBytes: number): number {
  return Math.floor((maxBodyBytes - ENVELOPE_BYTES) / 4) * 3;
}

/** Stops reading the payload as soon as the caller aborts, even while it is only being buffered. */
async function* untilAborted(
  bytes: AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of bytes) {
    if (signal?.aborted) throw new OaaError('push aborted', { code: 'ABORTED', cause: signal.reason });
    yield chunk;
  }
}

function escapedLength(group: ByteGroup): number {
  let n = 0;
  for (const s of jsonStringPieces(group.pieces)) n += s.length;
  return n;
}

function tooLarge(chunkBytes: number, compression: 'gzip' | 'none'): OaaError {
  const hints = [
    'split the data across several data sources',
    'push incremental changes (incremental_change) instead of the whole payload',
  ];
  if (compression === 'none') hints.unshift('push with gzip compression');
  return new OaaError(`the payload needs more than ${MAX_PARTS} multipart chunks of ${chunkBytes} bytes`, {
    code: 'PAYLOAD_TOO_LARGE',
    details: { maxParts: MAX_PARTS, chunkBytes },
    hints,
  });
}

/**
 * Streams a payload to a data source: serialized and gzipped on the fly, buffered up to the
 * single-push limit, sent as one `:push` when it fits, else as a multipart upload whose chunks go
 * out in parallel (bounded, each retried on its own) while the rest is still being produced.
 */
export async function pushPayload(
  apis: { push: PushApi; parts: PartsApi },
  options: PushPayloadOptions,
): Promise<PushPayloadResult> {
  const compression = options.compression ?? 'gzip';
  const maxBodyBytes = options.maxBodyBytes ?? SEND_BODY_LIMIT_BYTES;
  if (maxBodyBytes < 4 * ENVELOPE_BYTES) {
    throw new OaaError(`maxBodyBytes must be at least ${4 * ENVELOPE_BYTES}`, {
      code: 'CONFIG_INVALID',
      details: { maxBodyBytes },
    });
  }
  const source = payloadBytes(options, compression);
  const chunkBytes = rawBytesPerBody(maxBodyBytes);
  const groups = cut(untilAborted(source.bytes, options.signal), chunkBytes);
  const first = (await groups.next()).value!;
  const target = {
    providerId: options.providerId,
    dataSourceId: options.dataSourceId,
    signal: options.signal,
  };
  const pushTarget =
    options.priorityPush === undefined ? target : { ...target, priorityPush: options.priorityPush };

  if (first.last && (compression === 'gzip' || escapedLength(first) <= maxBodyBytes - ENVELOPE_BYTES)) {
    const { warnings } = await apis.push.bytes({ ...pushTarget, data: first.pieces, compression });
    return withValidation(source, {
      warnings,
      mode: 'single',
      jsonBytes: source.jsonBytes(),
      compressedBytes: first.bytes,
      chunks: 1,
    });
  }

  const { uploadId } = await apis.parts.start(target);
  const abort = new AbortController();
  const onAbort = (): void => abort.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 3) });
  const uploads: Promise<void>[] = [];
  let failure: unknown;
  let sequence = 0;
  let compressedBytes = 0;
  const submit = (group: ByteGroup): void => {
    if (group.bytes === 0) return;
    sequence += 1;
    if (sequence > MAX_PARTS) throw tooLarge(chunkBytes, compression);
    compressedBytes += group.bytes;
    const part = { ...target, uploadId, sequenceNumber: sequence, data: group.pieces, signal: abort.signal };
    const upload = queue.add(async () => {
      await apis.parts.upload(part);
    });
    uploads.push(
      upload.then(undefined, (error: unknown) => {
        failure ??= error;
        abort.abort();
      }),
    );
  };
  try {
    submit(first);
    if (!first.last) {
      for await (const group of groups) {
        if (failure !== undefined) break;
        submit(group);
        await queue.onSizeLessThan(1);
      }
    }
  } catch (error) {
    failure ??= error;
    abort.abort();
  } finally {
    await Promise.all(uploads);
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (failure !== undefined) throw failure as Error;
  const { warnings } = await apis.parts.complete({ ...target, uploadId, sequenceCount: sequence });
  return withValidation(source, {
    warnings,
    mode: 'multipart',
    jsonBytes: source.jsonBytes(),
    compressedBytes,
    chunks: sequence,
  });
}

function withValidation(
  source: { validation?: { warnings: readonly Violation[] } },
  result: PushPayloadResult,
) {
  if (source.validation) result.validationWarnings = [...source.validation.warnings];
  return result;
}
