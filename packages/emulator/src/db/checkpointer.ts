/**
 * WAL checkpoints of a bulk commit, off the event loop. A file database runs in WAL mode: a commit
 * appends pages to the `-wal` file, and SQLite's automatic checkpoint then copies them into the
 * database file, inside the commit that crossed its threshold. For a bulk submission that is the
 * whole graph again (585 MB of pages for bench-app-1000000, about 1 s), on the thread that answers
 * requests. `commitWithDeferredCheckpoint` commits such a transaction with the automatic checkpoint
 * off, and a worker thread with its own connection to the file runs a PASSIVE checkpoint after it
 * (readers and writers go on meanwhile; another commit's automatic checkpoint waits for no lock and
 * skips while one runs). Small commits keep SQLite's automatic checkpoint.
 */
import { Worker } from 'node:worker_threads';
import type { Db } from './schema.js';
import { sqliteWorkerData } from './sqlite.js';

/** The worker: one connection to the file; checkpoints on each message, closes on `close`. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.binding);
const db = new Database(workerData.file, { timeout: workerData.timeout });
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  let result;
  try {
    result = db.pragma('wal_checkpoint(PASSIVE)')[0];
  } catch (err) {
    result = { error: String((err && err.message) || err) };
  }
  parentPort.postMessage(result);
});
`;

/** One database file's checkpoint worker. */
class Checkpointer {
  /** Whether the worker has exited (it failed to start, or was closed): requests are not taken. */
  dead = false;
  private readonly worker: Worker;
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly exited: Promise<void>;

  constructor(file: string) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: sqliteWorkerData(file) });
    // A checkpoint left undone is done by a later commit's automatic one: never keep the process up.
    this.worker.unref();
    this.worker.on('message', () => this.markDone(1));
    this.worker.on('error', () => this.markDone(this.pending));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.dead = true;
        this.markDone(this.pending);
        resolve();
      }),
    );
  }

  request(): void {
    this.pending++;
    this.worker.postMessage('checkpoint');
  }

  /**
   * Resolves once no requested checkpoint is outstanding. The worker keeps the process up while
   * someone waits for it: unreferenced, the process would end with the wait unanswered.
   */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    this.worker.ref();
    return new Promise((resolve) =>
      this.idleWaiters.push(() => {
        this.worker.unref();
        resolve();
      }),
    );
  }

  /** Closes the worker's connection after the checkpoints requested (the worker then exits). */
  async close(): Promise<void> {
    if (!this.dead) {
      // Waited for: the process must not end before the worker does (see `idle`).
      this.worker.ref();
      this.worker.postMessage('close');
    }
    await this.exited;
  }

  /** Counts `count` requested checkpoints as done (or given up); the last one wakes `idle()`'s waiters. */
  private markDone(count: number): void {
    this.pending = Math.max(0, this.pending - count);
    if (this.pending > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

const checkpointers = new WeakMap<Db, Checkpointer>();

/**
 * Where a commit runs when it is not on `db`'s own connection: a worker connection of its file
 * (`worker-connection.ts`), whose thread also runs the checkpoint after the commit (no second thread).
 */
export interface CommitVia {
  connection: Db;
  /** Asks for a PASSIVE checkpoint after the commit, without waiting for it. */
  checkpoint: () => void;
}

/**
 * Runs `commit` (it commits one write transaction): when `bulk` and the database is a WAL file,
 * with SQLite's automatic checkpoint off, then asks the worker to checkpoint (after a successful
 * commit). Answers what `commit` answers. With `via`, the commit runs on its connection, which
 * checkpoints itself.
 */
export function commitWithDeferredCheckpoint<T>(db: Db, bulk: boolean, commit: () => T, via?: CommitVia): T {
  if (!bulk || db.memory || db.inTransaction || db.pragma('journal_mode', { simple: true }) !== 'wal')
    return commit();
  if (via !== undefined) return commitWithoutAutoCheckpoint(db, via.connection, commit, via.checkpoint);
  let checkpointer = checkpointers.get(db);
  // A worker that could not start: SQLite's automatic checkpoint stays in charge.
  if (checkpointer?.dead) return commit();
  return commitWithoutAutoCheckpoint(db, db, commit, () => {
    if (checkpointer === undefined) {
      checkpointer = new Checkpointer(db.name);
      checkpointers.set(db, checkpointer);
    }
    checkpointer.request();
  });
}

/** `commit` on `connection` with its automatic checkpoint off, then `checkpoint` after success. */
function commitWithoutAutoCheckpoint<T>(db: Db, connection: Db, commit: () => T, checkpoint: () => void): T {
  const automatic = connection.pragma('wal_autocheckpoint', { simple: true }) as number;
  connection.pragma('wal_autocheckpoint = 0');
  const restore = () => {
    try {
      connection.pragma(`wal_autocheckpoint = ${automatic}`);
    } catch (err) {
      // A worker connection that stopped has no setting left to restore (its error is thrown).
      if (connection === db) throw err;
    }
  };
  let result: T;
  try {
    result = commit();
  } finally {
    // Before the checkpoint: a worker connection would answer the pragma only after it.
    restore();
  }
  checkpoint();
  return result;
}

/** Resolves once the checkpoints requested for `db` are done (at once when none were). */
export function checkpointsDone(db: Db): Promise<void> {
  return checkpointers.get(db)?.idle() ?? Promise.resolve();
}

/** Lets the checkpoints requested for `db` finish and stops its worker. Call before `db.close()`. */
export async function closeCheckpointer(db: Db): Promise<void> {
  const checkpointer = checkpointers.get(db);
  if (checkpointer === undefined) return;
  checkpointers.delete(db);
  await checkpointer.close();
}
