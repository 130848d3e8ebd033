/**
 * Multipart upload sessions: chunks live in SQLite as BLOBs (not in JavaScript memory) until
 * `complete` assembles them in sequence order. Sessions expire after a period of inactivity,
 * measured on the emulator clock.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/schema.js';
import { gunzipPayload, isGzip } from './decode.js';

export interface UploadSession {
  id: string;
  data_source_id: string;
  last_activity_ms: number;
  /** The JSON answer of a completed upload, repeated if `complete` is sent again. */
  result: string | null;
}

/** Deletes sessions idle since before `cutoffMs`, with their chunks. */
export function purgeExpiredSessions(db: Db, cutoffMs: number): void {
  db.prepare('DELETE FROM upload_sessions WHERE last_activity_ms < ?').run(cutoffMs);
}

/** Opens a session for a data source, started by `caller` (see `Principal`). */
export function openSession(db: Db, dataSourceId: string, caller: string, nowMs: number): string {
  const id = randomUUID();
  db.transaction(() => {
    db.prepare('INSERT INTO upload_sessions (id, data_source_id, last_activity_ms) VALUES (?, ?, ?)').run(
      id,
      dataSourceId,
      nowMs,
    );
    db.prepare('INSERT INTO upload_callers (upload_id, caller) VALUES (?, ?)').run(id, caller);
  })();
  return id;
}

/**
 * How many sessions `caller` started that are neither completed nor deleted (expired ones are
 * deleted by `purgeExpiredSessions`), on any data source.
 */
export function countOpenSessions(db: Db, caller: string): number {
  return (
    db
      .prepare<[string], number>(
        `SELECT count(*) FROM upload_callers c JOIN upload_sessions s ON s.id = c.upload_id
         WHERE c.caller = ? AND s.result IS NULL`,
      )
      .pluck()
      .get(caller) ?? 0
  );
}

/** The session `id` of the data source, or undefined. */
export function findSession(db: Db, dataSourceId: string, id: string): UploadSession | undefined {
  return db
    .prepare<[string, string], UploadSession>(
      'SELECT id, data_source_id, last_activity_ms, result FROM upload_sessions WHERE id = ? AND data_source_id = ?',
    )
    .get(id, dataSourceId);
}

/** Stores chunk `seq`, replacing an earlier chunk with the same number. */
export function putChunk(db: Db, uploadId: string, seq: number, data: Buffer, nowMs: number): void {
  db.transaction(() => {
    db.prepare(
      'INSERT INTO upload_chunks (upload_id, seq, data) VALUES (?, ?, ?) ON CONFLICT (upload_id, seq) DO UPDATE SET data = excluded.data',
    ).run(uploadId, seq, data);
    db.prepare('UPDATE upload_sessions SET last_activity_ms = ? WHERE id = ?').run(nowMs, uploadId);
  })();
}

/** Field violations when the stored chunks are not exactly 1..count. */
export function chunkProblems(
  db: Db,
  uploadId: string,
  count: number,
): { field: string; description: string }[] {
  const present = new Set(
    db.prepare<[string], number>('SELECT seq FROM upload_chunks WHERE upload_id = ?').pluck().all(uploadId),
  );
  const problems: { field: string; description: string }[] = [];
  for (let seq = 1; seq <= count; seq++) {
    if (!present.has(seq))
      problems.push({
        field: 'sequence_number',
        description: `sequence_number ${seq} missing: upload it before complete`,
      });
  }
  for (const seq of [...present].sort((a, b) => a - b)) {
    if (seq > count)
      problems.push({
        field: 'sequence_count',
        description: `chunk ${seq} was uploaded but sequence_count is ${count}`,
      });
  }
  return problems;
}

function chunk(db: Db, uploadId: string, seq: number): Buffer {
  return db
    .prepare<[string, number], Buffer>('SELECT data FROM upload_chunks WHERE upload_id = ? AND seq = ?')
    .pluck()
    .get(uploadId, seq)!;
}

/** The chunks of an upload in sequence order, read from SQLite one at a time. */
export function* chunks(db: Db, uploadId: string, count: number): Generator<Buffer> {
  for (let seq = 1; seq <= count; seq++) yield chunk(db, uploadId, seq);
}

/**
 * The assembled payload bytes as a stream, decompressed when the first chunk starts with the gzip
 * magic bytes (under the same limit as a gzip push of their total size, see `gunzipPayload`).
 * Chunks are read one at a time; `gzip` says whether the chunks were gzip.
 */
export function assemble(
  db: Db,
  uploadId: string,
  count: number,
): { gzip: boolean; bytes: AsyncIterable<Buffer> | Iterable<Buffer> } {
  const total =
    db
      .prepare<[string], number>('SELECT sum(length(data)) FROM upload_chunks WHERE upload_id = ?')
      .pluck()
      .get(uploadId) ?? 0;
  const gzip = isGzip(chunk(db, uploadId, 1));
  const all = chunks(db, uploadId, count);
  return { gzip, bytes: gzip ? gunzipPayload(all, total, 'data') : all };
}

/** Marks the session completed with its answer and drops its chunks. */
export function completeSession(db: Db, uploadId: string, result: unknown, nowMs: number): void {
  db.transaction(() => {
    db.prepare('UPDATE upload_sessions SET result = ?, last_activity_ms = ? WHERE id = ?').run(
      JSON.stringify(result),
      nowMs,
      uploadId,
    );
    db.prepare('DELETE FROM upload_chunks WHERE upload_id = ?').run(uploadId);
  })();
}
