import { OaaError, createPayloadStream } from '@oaakit/core';
import type { PayloadStreamOptions, ValidationAsRead } from '@oaakit/core';

/** Payload bytes ready to cut into requests, with the JSON size once known. */
export interface PayloadBytes {
  bytes: AsyncIterable<Uint8Array>;
  /** JSON bytes counted so far; undefined when the caller gave pre-compressed bytes. */
  jsonBytes(): number | undefined;
  /** The checks made while the payload is read, when asked for. */
  validation?: ValidationAsRead;
}

/**
 * The raw (gzip or JSON) bytes of what is to be pushed: core's streaming serializer for a payload
 * object, or the caller's stream as is. Base64 is left to the request bodies, which must be able to
 * resend a chunk on retry.
 */
export function payloadBytes(
  input: {
    payload?: unknown;
    stream?: AsyncIterable<Uint8Array>;
    validate?: PayloadStreamOptions['validate'];
    gzipWorkers?: number;
  },
  compression: 'gzip' | 'none',
): PayloadBytes {
  if ((input.stream === undefined) === (input.payload === undefined)) {
    throw new OaaError('pushPayload takes exactly one of payload and stream', { code: 'INVALID_ARGUMENT' });
  }
  if (input.stream !== undefined) {
    if (input.validate) {
      throw new OaaError('validate needs the payload object, not serialized bytes', {
        code: 'INVALID_ARGUMENT',
      });
    }
    if (compression === 'gzip') return { bytes: input.stream, jsonBytes: () => undefined };
    let counted = 0;
    const source = input.stream;
    return {
      bytes: (async function* () {
        for await (const chunk of source) {
          counted += chunk.byteLength;
          yield chunk;
        }
      })(),
      jsonBytes: () => counted,
    };
  }
  const { stream, counters, validation } = createPayloadStream(input.payload, {
    compression,
    encoding: 'binary',
    ...(input.validate ? { validate: input.validate } : {}),
    ...(input.gzipWorkers === undefined ? {} : { gzipWorkers: input.gzipWorkers }),
  });
  const bytes: PayloadBytes = { bytes: stream, jsonBytes: () => counters.jsonBytes };
  if (validation) bytes.validation = validation;
  return bytes;
}
