/** `POST .../datasources/{data_source_id}:push`: a JSON payload, plain or gzip + base64. */
import { normalizeCompression, pushRequestSchema } from '@oaakit/core';
import type { EmulatorContext } from '../context.js';
import { ApiError, badField } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { decodeBase64, gunzipPayload, utf8Text } from '../push/decode.js';
import { pieces } from '../push/inflate.js';
import { oneAtATime } from '../push/payload-gate.js';
import { processPayload, recordFailure, type PayloadInput } from '../push/process-payload.js';
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

/** Handles a push: its payload is decoded and processed when no other payload is. */
export async function handlePush(
  ctx: EmulatorContext,
  target: PushTarget,
  rawBody: unknown,
): Promise<PushAnswer> {
  const body = parseBody(pushRequestSchema, rawBody);
  checkBodyIds(target, body);
  return oneAtATime(ctx, async () => {
    const input = await decodePayload(ctx, target, async () => {
      if (normalizeCompression(body.compression_type) === 'NONE')
        return { text: body.json_data, field: 'json_data' };
      const gz = decodeBase64(body.json_data, 'json_data');
      const json = await gunzipPayload(pieces(gz), gz.length, 'json_data');
      return { text: utf8Text(json, 'json_data'), gzip: gz, field: 'json_data' };
    });
    return processPayload(ctx, target, input);
  });
}
