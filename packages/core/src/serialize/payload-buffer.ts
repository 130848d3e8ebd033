import { createPayloadStream } from './payload-stream.js';
import type { PayloadByteCounts, PayloadStreamOptions } from './payload-stream.js';

/** A payload serialized in memory, with its byte counts. */
export interface PayloadBuffer extends PayloadByteCounts {
  /** The encoded bytes (for base64 and json-string encodings, ASCII text: `data.toString('latin1')`). */
  readonly data: Buffer;
}

/**
 * Serializes a payload into one Buffer, for payloads small enough to hold in memory (a push body
 * under the 100 MB limit, tests). Same options and defaults as `createPayloadStream`.
 *
 * @example
 * const { data } = await payloadToBuffer(payload); // gzip + base64
 * body.json_data = data.toString('latin1');
 */
export async function payloadToBuffer(
  source: unknown,
  options: PayloadStreamOptions = {},
): Promise<PayloadBuffer> {
  const { stream, counters } = createPayloadStream(source, options);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { data: Buffer.concat(chunks), ...snapshot(counters) };
}

/**
 * Computes a payload's byte counts without keeping its bytes, e.g. to decide between a single
 * push and a multipart upload. Serializes the whole payload, so async iterables in it are consumed.
 */
export async function measurePayload(
  source: unknown,
  options: PayloadStreamOptions = {},
): Promise<PayloadByteCounts> {
  const { stream, counters } = createPayloadStream(source, options);
  for await (const _chunk of stream);
  return snapshot(counters);
}

function snapshot(counters: PayloadByteCounts): PayloadByteCounts {
  return {
    jsonBytes: counters.jsonBytes,
    compressedBytes: counters.compressedBytes,
    outputBytes: counters.outputBytes,
  };
}
