/** `POST .../datasources/{data_source_id}:push`: a JSON payload, plain or gzip + base64. */
import { normalizeCompression, pushRequestSchema } from '@oaakit/core';
import type { EmulatorContext } from '../context.js';
import { ApiError, badField } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { decodeBase64, gunzipPayload, textPieces } from '../push/decode.js';
import { pieces } from '../push/inflate.js';
import { oneAtATime } from '../push/payload-gate.js';
import { processPayload, recordFailure, type PayloadInput } from '../push/process-payload.js';
import { readPayload } from '../push/read-payload.js';
import type { PushAnswer, PushTarget } from '../push/target.js';

/** Checks that the body's ids name the data source of the path. */
export function checkBodyIds(
  target: PushTarget,
  body: { id?: string | null | undefined; data_source_id?: string | null | undefined },
): void {
  if (body.id != null && body.id !== target.provider.id)
    throw badField('id', `must be the provider id of the path (${target.provider.id})`);
  if (body.data_source_id != null && body.data_source_id !== target.dataSource.id) {
    throw badField('data_source_id', `must be the data source id of the path (${target.dataSource.id})`);
  }
}

/** Decodes a pushed payload; a payload that cannot be decoded marks the data source FAILED. */
export async function decodePayload(
  ctx: EmulatorContext,
  target: PushTarget,
  decode: () => Promise<PayloadInput>,
): Promise<PayloadInput> {
  try {
    return await decode();
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) recordFailure(ctx, target, err.violations);
    throw err;
  }
}

/** The held text, no longer held. */
function take(held: { text: string }): string {
  const text = held.text;
  held.text = '';
  return text;
}

/**
 * Handles a push: its payload is decoded and processed when no other payload is. The JSON is read
 * as a stream (gunzipped piece by piece, see `read-payload.ts`); the request body itself (at most
 * the body limit, 100 MB) was parsed by the framework.
 */
export async function handlePush(
  ctx: EmulatorContext,
  target: PushTarget,
  rawBody: unknown,
): Promise<PushAnswer> {
  const { json_data: jsonData, ...body } = parseBody(pushRequestSchema, rawBody);
  checkBodyIds(target, body);
  const template = target.provider.custom_template;
  // The request's copy of json_data (up to 100 MB) is let go as soon as it is decoded.
  const held = { text: jsonData };
  if (rawBody !== null && typeof rawBody === 'object') (rawBody as { json_data?: unknown }).json_data = '';
  return oneAtATime(ctx, async () => {
    const input = await decodePayload(ctx, target, async () => {
      if (normalizeCompression(body.compression_type) === 'NONE') {
        const read = await readPayload(textPieces(take(held)), { template, field: 'json_data' });
        return { read, field: 'json_data' };
      }
      const gz = decodeBase64(take(held), 'json_data');
      const json = gunzipPayload(pieces(gz), gz.length, 'json_data');
      const read = await readPayload(json, { template, field: 'json_data', gzip: () => gz });
      return { read, field: 'json_data' };
    });
    return processPayload(ctx, target, input);
  });
}
