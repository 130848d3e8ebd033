/**
 * `POST .../datasources/{data_source_id}:parts`: multipart upload (`start`, `upload`, `complete`).
 * The assembled bytes are the payload as `json_data` would carry it after base64 decoding: gzip
 * (recognised by its magic bytes) or plain JSON. `complete` reads them as a stream from SQLite, one
 * chunk at a time, and processes the payload exactly like a push: a payload may be larger than one
 * JavaScript string (512 MB of JSON).
 *
 * Each caller (API key, OAuth2 app for a user, console user) may hold `limits.maxOpenUploadsPerKey`
 * uploads open at once: every open upload keeps its chunks in the database until it completes or
 * expires, so without a cap one key could fill the disk with uploads it never completes.
 */
import { multipartRequestSchema } from '@oaakit/core';
import type { EmulatorContext } from '../context.js';
import { ApiError, badField, invalidArgument } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { decodeBase64 } from '../push/decode.js';
import { oneAtATime } from '../push/payload-gate.js';
import { processPayload } from '../push/process-payload.js';
import { readPayload } from '../push/read-payload.js';
import type { PushAnswer, PushTarget } from '../push/target.js';
import {
  assemble,
  chunkProblems,
  chunks,
  completeSession,
  countOpenSessions,
  findSession,
  openSession,
  purgeExpiredSessions,
  putChunk,
  type UploadSession,
} from '../push/upload-sessions.js';
import { decodePayload } from './push.js';

function requireSession(ctx: EmulatorContext, target: PushTarget, uploadId: string): UploadSession {
  const session = findSession(ctx.db, target.dataSource.id, uploadId);
  if (!session) {
    throw new ApiError('NotFound', {
      message: `upload ${uploadId} not found: it never existed for this data source, or it expired after ${ctx.uploadSessionTtlMs / 1000} s without activity`,
      resource: { type: 'upload', name: uploadId },
    });
  }
  return session;
}

async function completeUpload(
  ctx: EmulatorContext,
  target: PushTarget,
  uploadId: string,
  count: number,
): Promise<PushAnswer> {
  const session = requireSession(ctx, target, uploadId);
  if (session.result !== null) return JSON.parse(session.result) as PushAnswer;
  const problems = chunkProblems(ctx.db, session.id, count);
  if (problems.length > 0) throw invalidArgument(problems);
  const input = await decodePayload(ctx, target, async () => {
    const assembled = assemble(ctx.db, session.id, count);
    // Gzip chunks are stored as sent, one at a time (their concatenation is the gzip file); plain
    // ones compressed.
    const stored = { pieces: () => chunks(ctx.db, session.id, count) };
    const gzip = assembled.gzip ? () => stored : undefined;
    const template = target.provider.custom_template;
    return { read: await readPayload(assembled.bytes, { template, field: 'data', gzip }), field: 'data' };
  });
  const answer = await processPayload(ctx, target, input);
  completeSession(ctx.db, session.id, answer, ctx.clock.nowMs());
  return answer;
}

/** Opens an upload for `caller`, unless it holds the most open uploads it may. */
function startUpload(ctx: EmulatorContext, target: PushTarget, caller: string, now: number): string {
  const max = ctx.limits.maxOpenUploadsPerKey;
  return ctx.db.transaction(() => {
    if (countOpenSessions(ctx.db, caller) >= max)
      throw badField(
        'operation',
        `at most ${max} multipart uploads may be open at once per API key: complete one first (operation complete), or let an abandoned one expire after ${ctx.uploadSessionTtlMs / 1000} s without activity`,
      );
    return openSession(ctx.db, target.dataSource.id, caller, now);
  })();
}

/**
 * Handles one multipart operation of `caller` (see `Principal`); `complete` waits until no other
 * payload is being processed.
 */
export async function handleParts(
  ctx: EmulatorContext,
  target: PushTarget,
  rawBody: unknown,
  caller: string,
): Promise<{ upload_id: string } | Record<string, never> | PushAnswer> {
  const body = parseBody(multipartRequestSchema, rawBody);
  const now = ctx.clock.nowMs();
  purgeExpiredSessions(ctx.db, now - ctx.uploadSessionTtlMs);
  switch (body.operation) {
    case 'start':
      return { upload_id: startUpload(ctx, target, caller, now) };
    case 'upload': {
      const session = requireSession(ctx, target, body.upload_id);
      if (session.result !== null)
        throw badField('upload_id', 'this upload was completed already: start a new one');
      putChunk(ctx.db, session.id, body.sequence_number, decodeBase64(body.data, 'data'), now);
      return {};
    }
    case 'complete':
      // Inside the gate, a repeated `complete` sent while the first still runs gets its answer.
      return oneAtATime(ctx, () => completeUpload(ctx, target, body.upload_id, body.sequence_count));
  }
}
