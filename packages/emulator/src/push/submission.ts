/**
 * A data source's current submission: its payload (gzip, kept for incremental pushes) and its graph.
 * Replacing it happens in one transaction: the old graph rows go, the new ones come, tags stay.
 */
import { gunzipSync } from 'node:zlib';
import type { Template } from '@oaakit/core';
import { createNodeIdIndex, dropGraphIndexes } from '../db/graph-indexes.js';
import type { PushDb } from '../db/push-db.js';
import type { Db } from '../db/schema.js';
import { deleteRanges, rangesOf, type GraphRanges } from '../graph/delete-graph.js';
import { ingestPayload, type IngestResult } from '../graph/ingest.js';
import { GraphWriter } from '../graph/writer.js';
import { storeActivity, type LastLoginLookup } from '../last-login/lookup.js';
import type { StoredGzip } from './stored-gzip.js';

/** Whether the data source has a stored submission. */
export function hasSubmission(db: Db, dataSourceId: string): boolean {
  return rangesOf(db, dataSourceId) !== undefined;
}

/** Gzip costs at least this many bytes of its own per byte of JSON (deflate's stored blocks). */
const MOST_GZIP_PER_JSON_BYTE = 1.001;

/**
 * The stored payload's JSON text, undefined without a submission, or 'too large' past `maxBytes`
 * of JSON (the inflation stops there).
 */
export function storedPayloadText(
  db: Db,
  dataSourceId: string,
  maxBytes: number,
): { text: string } | 'too large' | undefined {
  const row = db
    .prepare<[string], { payload_gzip: Buffer }>(
      'SELECT payload_gzip FROM submissions WHERE data_source_id = ?',
    )
    .get(dataSourceId);
  if (row === undefined) return undefined;
  let gz = row.payload_gzip;
  if (gz.length === 0) {
    const size =
      db
        .prepare<[string], number>('SELECT sum(length(data)) FROM submission_parts WHERE data_source_id = ?')
        .pluck()
        .get(dataSourceId) ?? 0;
    // Gzip bytes that cannot inflate to less than the limit are not read at all.
    if (size > maxBytes * MOST_GZIP_PER_JSON_BYTE + 1024) return 'too large';
    gz = Buffer.concat(
      db
        .prepare<[string], Buffer>('SELECT data FROM submission_parts WHERE data_source_id = ? ORDER BY seq')
        .pluck()
        .all(dataSourceId),
    );
  }
  let json: Buffer;
  try {
    json = gunzipSync(gz, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return 'too large';
    throw err;
  }
  return { text: json.toString('utf8') };
}

/**
 * Most bytes of the stored payload in one row: a GZIP push's stored copy is one buffer (17 MB for
 * bench-app-1000000), which SQLite (and a worker connection's message) would otherwise copy whole.
 */
const ROW_BYTES = 1024 * 1024;

/** Stores `stored` as the data source's payload, in rows of at most `ROW_BYTES`, one at a time. */
function storePayload(db: PushDb, dataSourceId: string, stored: StoredGzip): void {
  db.prepare('DELETE FROM submission_parts WHERE data_source_id = ?').run(dataSourceId);
  const insert = db.prepare('INSERT INTO submission_parts (data_source_id, seq, data) VALUES (?, ?, ?)');
  let seq = 0;
  for (const piece of stored.pieces()) {
    for (let at = 0; at < piece.length; at += ROW_BYTES)
      insert.run(dataSourceId, ++seq, piece.subarray(at, at + ROW_BYTES));
  }
}

export interface ReplaceInput {
  providerId: string;
  dataSourceId: string;
  template: Template;
  payload: unknown;
  /** Size of the payload's JSON text, to estimate how many nodes it holds. */
  payloadBytes: number;
  payloadGzip: StoredGzip;
  pushedAt: string;
  /** Last-login enrichment of the push (undefined: off); stored with the submission. */
  lastLogin?: LastLoginLookup | undefined;
  /** Runs after the graph is written, before the submission row: may throw to roll back. */
  afterIngest?: (() => void) | undefined;
}

/** `submissions.payload_gzip` of a payload stored in `submission_parts`. */
const EMPTY = Buffer.alloc(0);

/** Payloads below this size (bytes of JSON) never rebuild the node-id index. */
export const BULK_BYTES = 16 * 1024 * 1024;
/** Rough JSON bytes per node, for the estimate. */
const BYTES_PER_NODE = 250;

/**
 * Whether to drop the graph's indexes and build the node-id index again after writing (the
 * node-query indexes are left to the first query, `db/graph-indexes.ts`): far cheaper than keeping
 * them up to date row by row when the submission is most of the graph (random-order index inserts
 * are what a big ingest spends most of its time on), and far dearer when it is a small part of it.
 */
function rebuildIndex(db: PushDb, replacedNodes: number, payloadBytes: number): boolean {
  if (payloadBytes < BULK_BYTES) return false;
  // Every node is in the range of one submission: counted without reading the graph's pages.
  const total =
    db.prepare<number | null>('SELECT sum(node_hi - node_lo + 1) FROM submissions').pluck().get() ?? 0;
  return payloadBytes / BYTES_PER_NODE + replacedNodes > total - replacedNodes;
}

/**
 * Page cache of a file database while a bulk submission is written, in KiB (it also bounds the
 * sorter that builds the node-id index). The rows are appended (the node-id index is rebuilt
 * after), so a small cache costs no measurable time (bench-app-300000: the same CPU time as with the
 * usual 128 MiB; bench-app-1000000: the same with 1 MiB as with 8) and keeps 100-140 MB off the
 * process's peak memory (1 MiB instead of 8: about 15 MB more, the pages and sorter of the worker
 * connection's thread, `db/worker-connection.ts`).
 */
const BULK_CACHE_KIB = 1024;

/** Replaces the submission's graph and payload. Call inside a transaction. */
export function replaceSubmission(db: PushDb, input: ReplaceInput): IngestResult {
  const old = rangesOf(db, input.dataSourceId);
  const bulk = rebuildIndex(db, old ? old.node_hi - old.node_lo + 1 : 0, input.payloadBytes);
  // An in-memory database's pages are its cache: only a file database's cache is shrunk.
  const cache = bulk && !db.memory ? (db.pragma('cache_size', { simple: true }) as number) : undefined;
  if (cache !== undefined) db.pragma(`cache_size = ${-BULK_CACHE_KIB}`);
  try {
    return writeSubmission(db, input, old, bulk);
  } finally {
    if (cache !== undefined) db.pragma(`cache_size = ${cache}`);
  }
}

function writeSubmission(
  db: PushDb,
  input: ReplaceInput,
  old: GraphRanges | undefined,
  bulk: boolean,
): IngestResult {
  if (bulk) dropGraphIndexes(db);
  if (old) deleteRanges(db, old, { keepTags: true });
  // A bulk ingest builds the node-id index once the nodes are written (for an application payload,
  // before its grants: a worker connection builds it while the main thread writes them).
  const w = new GraphWriter(
    db,
    input.dataSourceId,
    input.providerId,
    bulk ? () => createNodeIdIndex(db) : undefined,
  );
  const result = ingestPayload(w, input.template, input.payload, input.lastLogin);
  input.afterIngest?.();
  storeActivity(db, input.dataSourceId, input.lastLogin);
  w.nodesDone();
  const r = w.ranges();
  storePayload(db, input.dataSourceId, input.payloadGzip);
  db.prepare(
    `INSERT INTO submissions (data_source_id, template, payload_gzip, pushed_at, node_lo, node_hi, edge_lo, edge_hi, key_lo, key_hi)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (data_source_id) DO UPDATE SET template = excluded.template, payload_gzip = excluded.payload_gzip,
       pushed_at = excluded.pushed_at, node_lo = excluded.node_lo, node_hi = excluded.node_hi, edge_lo = excluded.edge_lo,
       edge_hi = excluded.edge_hi, key_lo = excluded.key_lo, key_hi = excluded.key_hi`,
  ).run(
    input.dataSourceId,
    input.template,
    EMPTY,
    input.pushedAt,
    r.node_lo,
    r.node_hi,
    r.edge_lo,
    r.edge_hi,
    r.key_lo,
    r.key_hi,
  );
  return result;
}
