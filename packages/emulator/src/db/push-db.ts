/**
 * What the transaction of a push writes through: the emulator's own better-sqlite3 connection (a
 * `Db`), or, for a bulk push to a database file, a connection on a worker thread
 * (`WorkerConnection`, `worker-connection.ts`). Both implement it; it offers only what both really
 * answer. A `run` answers nothing: the worker connection queues it and learns how it went only at a
 * later call, so neither `changes` nor `lastInsertRowid` is there to read.
 */

/** A prepared statement of a `PushDb`; `R` a row (or a plucked value). */
export interface PushStatement<R = unknown> {
  /** Runs the statement; answers nothing (an error may be thrown by a later call, at the latest the commit). */
  run(...params: unknown[]): void;
  get(...params: unknown[]): R | undefined;
  all(...params: unknown[]): R[];
  /** Whether `get` and `all` answer the first column's value rather than the row. */
  pluck(toggle?: boolean): this;
}

export interface PushDb {
  /** Whether the database is in memory (no other connection can see it). */
  readonly memory: boolean;
  prepare<R = unknown>(source: string): PushStatement<R>;
  exec(source: string): void;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** `fn` in one transaction of this connection (a savepoint inside another). */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
}
