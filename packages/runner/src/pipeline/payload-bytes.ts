/** Serializing the payload once for the push while copying the gzip bytes into the snapshot, and `savePayload`. */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createPayloadStream } from '@oaakit/core';
import type { Client, PushPayloadResult } from '@oaakit/client';
import type { SnapshotWriter } from '../state/state-store.js';
import { openAtomicFile } from '../state/atomic-write.js';
import type { PushSettings } from './run-types.js';

/** What the push sent. */
export interface PushOutcome extends PushPayloadResult {
  jsonBytes: number;
}

/**
 * Pushes `payload` (gzip, single or multipart as the client decides) and writes the same gzip bytes
 * to `snapshot`, so the payload is serialized and compressed once. `onBytes` gets live counts.
 */
export async function pushWithSnapshot(options: {
  client: Client;
  providerId: string;
  dataSourceId: string;
  payload: unknown;
  snapshot: SnapshotWriter;
  settings: PushSettings;
  signal: AbortSignal;
  onBytes: (jsonBytes: number, compressedBytes: number) => void;
}): Promise<PushOutcome> {
  const { stream, counters } = createPayloadStream(options.payload, {
    compression: 'gzip',
    encoding: 'binary',
    ...(options.settings.gzipLevel === undefined ? {} : { level: options.settings.gzipLevel }),
  });
  let compressed = 0;
  const snapshot = options.snapshot;
  async function* tee(): AsyncGenerator<Uint8Array> {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      await snapshot.write(chunk);
      compressed += chunk.byteLength;
      options.onBytes(counters.jsonBytes, compressed);
      yield chunk;
    }
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

/** Writes the payload to `path` atomically: gzip when the name ends in `.gz`, else JSON. */
export async function savePayloadFile(
  path: string,
  payload: unknown,
): Promise<{ json: number; compressed: number }> {
  const gzip = path.endsWith('.gz');
  const { stream, counters } = createPayloadStream(payload, {
    compression: gzip ? 'gzip' : 'none',
    encoding: 'binary',
  });
  await mkdir(dirname(path), { recursive: true });
  const file = await openAtomicFile(path);
  try {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) await file.write(chunk);
    await file.commit();
  } catch (error) {
    stream.destroy();
    await file.discard();
    throw error;
  }
  return { json: counters.jsonBytes, compressed: counters.compressedBytes };
}
