/**
 * Sharing one database file between processes: two `oaa run` in one directory each start the
 * embedded emulator on the same file. SQLite then answers `database is locked` (SQLITE_BUSY) in two
 * ways. A statement that finds another connection writing fails at once unless a busy timeout makes
 * it wait: better-sqlite3's `timeout` option. And a DEFERRED transaction (better-sqlite3's default)
 * that read before it writes cannot wait at all when another connection committed in between: it
 * would have to write on top of data it has not seen, so SQLite fails it with SQLITE_BUSY_SNAPSHOT
 * without calling the busy handler. Taking the write lock first (BEGIN IMMEDIATE) waits for it
 * instead, and rules that out; a transaction that still finds the database busy when the timeout
 * runs out is tried again as a whole.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** The handle (schema.ts's `Db`, named here without importing it: schema.ts imports this file). */
type Db = BetterSqlite3.Database;

/** How long a statement waits for another connection's write lock: a big ingest holds it for seconds. */
export const BUSY_TIMEOUT_MS = 15_000;

/** Attempts of a transaction while the database stays busy (each waiting up to the busy timeout). */
const BUSY_ATTEMPTS = 3;

/** Whether SQLite said another connection holds the lock (SQLITE_BUSY and its extended codes). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `fn` again while it fails because the database is busy. Only for work that fails before it
 * changes anything: a BEGIN IMMEDIATE, a pragma. (In WAL mode, which every file database here
 * uses, a transaction that holds the write lock is never busy again before its COMMIT.)
 */
export function retryBusy<T>(fn: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      if (!isBusy(error) || attempt >= BUSY_ATTEMPTS) throw error;
    }
  }
}

/**
 * Makes `db.transaction(fn)` begin IMMEDIATE (every transaction of the emulator writes), retried
 * while busy. A transaction inside another is a savepoint of the outer one, never retried alone.
 */
export function immediateTransactions(db: Db): void {
  const plain = db.transaction.bind(db);
  db.transaction = ((fn) => {
    const transaction = plain(fn);
    const immediate = transaction.immediate.bind(transaction) as (...args: unknown[]) => unknown;
    const run = (...args: unknown[]): unknown =>
      db.inTransaction ? immediate(...args) : retryBusy(() => immediate(...args));
    return Object.assign(run, {
      default: run,
      immediate: run,
      deferred: transaction.deferred.bind(transaction),
      exclusive: transaction.exclusive.bind(transaction),
    });
  }) as Db['transaction'];
}
