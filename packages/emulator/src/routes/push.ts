/** `POST .../datasources/{data_source_id}:push`: a JSON payload, plain or gzip + base64. */
import { pipeline, type Readable } from 'node:stream';
import { normalizeCompression, pushRequestSchema } from '@oaakit/core';
import type { FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { ApiError, badField } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { splitAction } from '../http/split-action.js';
import { decodeBase64, gunzipPayload, textPieces } from '../push/decode.js';
import { pieces } from '../push/inflate.js';
import { gzipBytesOf, type JsonData } from '../push/json-data-sink.js';
import { PushBodyStream, type Diverted } from '../push/push-body.js';
import { oneAtATime } from '../push/payload-gate.js';
import { processPayload, recordFailure, type PayloadInput } from '../push/process-payload.js';
import { readPayload } from '../push/read-payload.js';
import { storedGzipOf } from '../push/stored-gzip.js';
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

const diverted = new WeakMap<FastifyRequest, Diverted>();

/**
 * The `preParsing` hook of the data source actions: a `:push` body goes through a
 * `PushBodyStream`, which takes `json_data` out as it arrives (see `push-body.ts`).
 */
export function divertJsonData(req: FastifyRequest, payload: Readable): Promise<Readable> {
  const { ds } = req.params as { ds?: string };
  if (ds === undefined || splitAction(ds).action !== 'push') return Promise.resolve(payload);
  const stream = new PushBodyStream((d) => diverted.set(req, d), req.routeOptions.bodyLimit);
  pipeline(payload, stream, () => undefined);
  return Promise.resolve(stream);
}

/** The json_data taken out of `req`'s body, if any. */
export function divertedJsonData(req: FastifyRequest): Diverted | undefined {
  return diverted.get(req);
}

/**
 * The payload's bytes: those taken out of the body as it arrived (`taken`), else the body's
 * json_data string (a body the stream did not recognise, e.g. a key written with escapes), decoded
 * now. Throws 400 naming json_data as the decoding did before.
 */
function payloadBytes(
  taken: JsonData | undefined,
  text: string,
  compression: 'NONE' | 'GZIP',
): { plain: Iterable<Buffer> } | { gzip: Buffer } {
  if (compression === 'NONE') {
    if (taken === undefined) return { plain: textPieces(text) };
    if (taken.kind !== 'plain')
      throw badField('json_data', 'is not valid JSON: it does not start with "{" (the populated template)');
    return { plain: pieces(taken.bytes) };
  }
  return { gzip: taken === undefined ? decodeBase64(text, 'json_data') : gzipBytesOf(taken) };
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
  taken?: Diverted,
): Promise<PushAnswer> {
  const { json_data: jsonData, ...body } = parseBody(pushRequestSchema, rawBody);
  checkBodyIds(target, body);
  const template = target.provider.custom_template;
  const compression = normalizeCompression(body.compression_type) === 'NONE' ? 'NONE' : 'GZIP';
  const data = taken?.token === jsonData ? taken.data : undefined;
  // The body's json_data (a token, or a string of up to 100 MB) is not needed past the decoding.
  const held = { text: data === undefined ? jsonData : '' };
  if (rawBody !== null && typeof rawBody === 'object') (rawBody as { json_data?: unknown }).json_data = '';
  return oneAtATime(ctx, async () => {
    const input = await decodePayload(ctx, target, async () => {
      const text = held.text;
      held.text = '';
      const bytes = payloadBytes(data, text, compression);
      if ('plain' in bytes)
        return { read: await readPayload(bytes.plain, { template, field: 'json_data' }), field: 'json_data' };
      const gz = bytes.gzip;
      const json = gunzipPayload(pieces(gz), gz.length, 'json_data');
      return {
        read: await readPayload(json, { template, field: 'json_data', gzip: () => storedGzipOf([gz]) }),
        field: 'json_data',
      };
    });
    return processPayload(ctx, target, input);
  });
}
