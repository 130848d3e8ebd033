/**
 * The graph's secondary indexes around a bulk ingest. Keeping an index up to date row by row costs
 * far more than building it once when a submission is most of the graph, so a bulk ingest drops them
 * all and builds only the node-id index again in its transaction (tags and lookups by id need it, and
 * its uniqueness is checked there). The node-query indexes are built by the first graph query that
 * needs them (`ensureQueryIndexes`), or when the database is next opened: a push answers without
 * waiting for them, and pushes that follow one another without a query in between build them once.
 *
 * Indexes only make reads fast: a query that runs while they are missing answers the same rows.
 */
import type { Statement } from 'better-sqlite3';
import { isBusy } from './busy.js';
import type { PushDb } from './push-db.js';
import { NODE_ID_INDEX, QUERY_INDEXES, type Db } from './schema.js';

const QUERY_INDEX_NAMES = QUERY_INDEXES.map(([name]) => name);

/** Per database handle: the statement that counts the node-query indexes present. */
const counters = new WeakMap<Db, Statement<string[], number>>();

/** Drops the node-id index and the node-query indexes. Call inside the ingest's transaction. */
export function dropGraphIndexes(db: PushDb): void {
  for (const [name] of [NODE_ID_INDEX, ...QUERY_INDEXES]) db.exec(`DROP INDEX IF EXISTS ${name}`);
}

/**
 * Builds the node-id index again (fails on a duplicate id). Call inside the ingest's transaction.
 * A statement `run`, not `exec`: on a worker connection it is queued like the rows, so the main
 * thread goes on (writing the grants) while the worker builds it.
 */
export function createNodeIdIndex(db: PushDb): void {
  db.prepare(`CREATE ${NODE_ID_INDEX[1]}`).run();
}

/** Whether every node-query index exists. */
export function hasQueryIndexes(db: Db): boolean {
  let count = counters.get(db);
  if (count === undefined) {
    count = db
      .prepare<string[], number>(
        `SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN (${QUERY_INDEX_NAMES.map(() => '?').join(', ')})`,
      )
      .pluck();
    counters.set(db, count);
  }
  return count.get(...QUERY_INDEX_NAMES) === QUERY_INDEX_NAMES.length;
}

/**
 * Builds the node-query indexes a bulk ingest left out (a no-op when they exist). Call before a
 * graph query. It does not wait for another connection's write lock (another process sharing the
 * file may be ingesting for seconds): the query then runs without them (slower, same answer) and a
 * later one builds them.
 */
export function ensureQueryIndexes(db: Db): void {
  if (db.readonly || hasQueryIndexes(db)) return;
  const create = () => {
    for (const [, definition] of QUERY_INDEXES) db.exec(`CREATE ${definition}`);
  };
  if (db.inTransaction) {
    create();
    return;
  }
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (err) {
    if (isBusy(err)) return;
    throw err;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
  try {
    create();
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
