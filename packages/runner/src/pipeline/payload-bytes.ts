/** Serializing the payload once for the push (or a dry run's pass), and `savePayload`. */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { createPayloadStream, jsonChunks } from '@oaakit/core';
import type { Client, PushPayloadResult } from '@oaakit/client';
import type { EntityHashWriter } from '../state/entity-hash-writer.js';
import { openAtomicFile } from '../state/atomic-write.js';
import type { PushSettings } from './run-types.js';

/** What the push sent. */
export interface PushOutcome extends PushPayloadResult {
  jsonBytes: number;
}

/**
 * Pushes `value` (gzip, single or multipart as the client decides), serialized and compressed
 * once. `onBytes` gets live counts, and the push waits on `snapshot` when its writing lags.
 * `atEnd` runs once every byte is serialized, before the client sees the end of the bytes: what
 * it throws fails the push before the single request is sent or the multipart upload completed.
 */
export async function pushOnce(options: {
  client: Client;
  providerId: string;
  dataSourceId: string;
  value: unknown;
  snapshot: EntityHashWriter;
  settings: PushSettings;
  signal: AbortSignal;
  onBytes: (jsonBytes: number, compressedBytes: number) => void;
  atEnd: () => Promise<void>;
}): Promise<PushOutcome> {
  const { stream, counters } = createPayloadStream(options.value, {
    compression: 'gzip',
    encoding: 'binary',
    ...(options.settings.gzipLevel === undefined ? {} : { level: options.settings.gzipLevel }),
  });
  let compressed = 0;
  const snapshot = options.snapshot;
  async function* tee(): AsyncGenerator<Uint8Array> {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      await snapshot.ready();
      compressed += chunk.byteLength;
      options.onBytes(counters.jsonBytes, compressed);
      yield chunk;
    }
    await options.atEnd();
  }
  try {
    const result = await options.client.pushPayload({
      providerId: options.providerId,
      dataSourceId: options.dataSourceId,
      stream: tee(),
      compression: 'gzip',
      signal: options.signal,
      ...(options.settings.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.settings.maxBodyBytes }),
      ...(options.settings.concurrency === undefined ? {} : { concurrency: options.settings.concurrency }),
    });
    return { ...result, jsonBytes: counters.jsonBytes };
  } finally {
    stream.destroy();
  }
}

/** Reads `value` through the serializer to nowhere (a dry run's pass); the JSON bytes. */
export async function readThrough(value: unknown): Promise<number> {
  let bytes = 0;
  for await (const chunk of jsonChunks(value)) bytes += chunk.byteLength;
  return bytes;
}

/** Writes the payload to `path` atomically: gzip when the name ends in `.gz`, else JSON. */
export async function savePayloadFile(
  path: string,
  payload: unknown,
): Promise<{ json: number; compressed: number }> {
  const gzip = path.endsWith('.gz');
  await mkdir(dirname(path), { recursive: true });
  const file = await openAtomicFile(path);
  // The stream starts serializing at once: it is made only once it can be read, so that the error
  // of a small payload (an invalid streamed user) never fires before anything listens.
  let stream: Readable | undefined;
  try {
    const made = createPayloadStream(payload, { compression: gzip ? 'gzip' : 'none', encoding: 'binary' });
    stream = made.stream;
    for await (const chunk of stream as AsyncIterable<Uint8Array>) await file.write(chunk);
    await file.commit();
    return { json: made.counters.jsonBytes, compressed: made.counters.compressedBytes };
  } catch (error) {
    stream?.destroy();
    await file.discard();
    throw error;
  }
}
