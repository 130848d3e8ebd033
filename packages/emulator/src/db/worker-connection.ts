/**
 * A second connection to a database file, on a worker thread, driven synchronously from the main
 * thread: the transaction of a bulk push runs on it, so SQLite's own work (binding the rows, building
 * the records and pages, the node-id index; about 5 s of a push of bench-app-1000000) runs on another
 * core while the main thread reads, validates and turns the payload into rows.
 *
 * It is a `PushDb` (`push-db.ts`), what the code of a push writes through: `prepare`
 * (`run`, `get`, `all`, `pluck`), `exec`, `pragma`, `transaction`. A `run` is queued and sent with
 * others in one message, answered by nothing (so a `PushStatement`'s `run` answers nothing); the
 * first error of a queued `run` is thrown by the next call that answers something (at the latest
 * the COMMIT), and the transaction is then rolled back, so the push fails as a whole. Every other
 * call waits for the worker's answer (`Atomics.wait`, then `receiveMessageOnPort`): the push stays
 * one synchronous transaction, and no other request runs on the main thread while it is open.
 *
 * The main thread waits once the messages the worker has not handled yet hold about `MAX_IN_FLIGHT`
 * bytes, so memory holds some batches of rows, not the graph (enough to go on writing a payload's
 * grants while the worker builds the node-id index). A worker that stops (an uncaught error, its
 * thread ended) fails the push with an error: its connection is closed with the thread, which rolls
 * its transaction back, and the next bulk push starts a new worker. A worker that answers nothing
 * for `STALL_MS` is stopped.
 *
 * The commit's pages reach the database file after it, off the event loop: a file database runs in
 * WAL mode, where a commit appends its pages to the `-wal` file and SQLite's automatic checkpoint
 * then copies them into the database file, inside the commit that crossed its threshold. For a bulk
 * push that is the whole graph again (585 MB of pages for bench-app-1000000, about 1 s). This
 * connection has the automatic checkpoint off; after each commit, its worker runs a PASSIVE
 * checkpoint while the main thread goes on (readers and writers go on meanwhile; another commit's
 * automatic checkpoint waits for no lock and skips while one runs).
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { retryBusy } from './busy.js';
import { PackedRuns } from './packed-runs.js';
import type { PushDb, PushStatement } from './push-db.js';
import type { Db } from './schema.js';
import { sqliteWorkerData } from './sqlite.js';
import { SIGNAL_BYTES, SIGNAL_HANDLED, SIGNAL_STOPPED, WORKER_SOURCE } from './worker-connection-source.js';

/** Parameter values of queued `run`s sent in one message. */
const SEND_VALUES = 8192;
/** Bytes of Buffer parameters (a stored payload's pieces) queued before they are sent. */
const SEND_BYTES = 1024 * 1024;
/**
 * Bytes (estimated, see `PackedRuns.weight`) of the messages the worker may be behind before the main
 * thread waits for it.
 */
const MAX_IN_FLIGHT = 12 * 1024 * 1024;
/**
 * The worker's young generation, in MB: what it allocates (the rows of a message) dies at once, and
 * V8's default (up to 48 MB) would only add to the push's peak memory.
 */
const YOUNG_GENERATION_MB = 4;
/** The worker connection's page cache, in KiB: the main connection's (a bulk push shrinks it). */
const CACHE_KIB = 131_072;
/** How long a worker may handle no message before it is taken for dead. */
const STALL_MS = 120_000;

/** What the worker answers to a call. */
interface Reply {
  value?: unknown;
  error?: { message: string; code?: string; name?: string };
}

/** The error of the worker, rebuilt on the main thread (with SQLite's `code`, e.g. SQLITE_CONSTRAINT). */
function rebuilt(error: NonNullable<Reply['error']>): Error {
  const err = new Error(error.message);
  if (error.name) err.name = error.name;
  if (error.code !== undefined) (err as Error & { code: string }).code = error.code;
  return err;
}

/** One worker thread with its connection to the file. */
class ConnectionWorker {
  /** Why the worker cannot be used any more, once it stopped. */
  stopped: string | undefined;
  private readonly worker: Worker;
  private readonly signal: Int32Array;
  private readonly replies: MessagePort;
  private sent = 0;
  /** Estimated bytes of each message sent and not yet known handled, oldest first. */
  private readonly weights: number[] = [];
  /** The number of the message `weights[0]` is for (messages are numbered from 0 as sent). */
  private weightsFrom = 0;
  private inFlight = 0;

  constructor(file: string) {
    this.signal = new Int32Array(new SharedArrayBuffer(SIGNAL_BYTES));
    const channel = new MessageChannel();
    this.replies = channel.port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        ...sqliteWorkerData(file),
        cacheKib: CACHE_KIB,
        signal: this.signal.buffer,
        replies: channel.port2,
      },
      transferList: [channel.port2],
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    // Idle between pushes: never keep the process up.
    this.worker.unref();
    this.replies.unref();
    this.worker.on('error', () => this.stop('the database worker thread failed'));
    this.worker.on('exit', () => this.stop('the database worker thread ended'));
  }

  /** Sends a message the worker answers with nothing; `weight`: its estimated bytes. */
  post(message: unknown, weight = 0, transfer: ArrayBuffer[] = []): void {
    this.check();
    this.worker.postMessage(message, transfer);
    this.sent++;
    this.weights.push(weight);
    this.inFlight += weight;
  }

  /** Sends a call and waits for its answer. */
  call(message: unknown): unknown {
    this.post(message);
    this.waitAll();
    const reply = receiveMessageOnPort(this.replies)?.message as Reply | undefined;
    if (reply === undefined) throw this.fail('the database worker thread did not answer');
    if (reply.error) throw rebuilt(reply.error);
    return reply.value;
  }

  /** Waits until the worker has handled every message sent. */
  waitAll(): void {
    this.waitUntil((handled) => handled >= this.sent);
  }

  /** Waits until the messages the worker has not handled weigh at most `bytes`. */
  waitInFlight(bytes: number): void {
    this.waitUntil(() => this.inFlight <= bytes);
  }

  private waitUntil(done: (handled: number) => boolean): void {
    let handled = Atomics.load(this.signal, SIGNAL_HANDLED);
    let since = Date.now();
    for (;;) {
      while (this.weightsFrom < handled && this.weights.length > 0) {
        this.inFlight -= this.weights.shift()!;
        this.weightsFrom++;
      }
      if (done(handled)) return;
      if (Atomics.load(this.signal, SIGNAL_STOPPED) !== 0)
        throw this.fail('the database worker thread stopped');
      Atomics.wait(this.signal, SIGNAL_HANDLED, handled, 1000);
      const now = Atomics.load(this.signal, SIGNAL_HANDLED);
      if (now !== handled) {
        handled = now;
        since = Date.now();
      } else if (Date.now() - since > STALL_MS) {
        throw this.fail(`the database worker thread answered nothing for ${STALL_MS / 1000} s`);
      }
    }
  }

  /** Ends the thread (its connection closes, rolling back an open transaction). */
  stop(why: string): void {
    this.stopped ??= why;
    void this.worker.terminate();
  }

  /** Closes the connection and ends the thread once it is done. */
  async close(): Promise<void> {
    if (this.stopped === undefined) {
      this.stopped = 'closed';
      this.worker.ref();
      this.worker.postMessage({ op: 'close' });
    }
    await new Promise<void>((resolve) => {
      if (this.worker.threadId < 0) resolve();
      else this.worker.once('exit', () => resolve());
    });
  }

  private check(): void {
    if (this.stopped !== undefined) throw new Error(`${this.stopped} (it writes bulk pushes)`);
  }

  private fail(why: string): Error {
    this.stop(why);
    return new Error(`${why} during a write: the push is rolled back`);
  }
}

/** A prepared statement of a `WorkerConnection` (prepared in the worker when first used). */
class RemoteStatement<R> implements PushStatement<R> {
  private plucked = false;

  constructor(
    private readonly connection: WorkerConnection,
    readonly id: number,
    readonly source: string,
  ) {}

  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }

  /** Queues the statement with `params` (see the file header). */
  run(...params: unknown[]): void {
    this.connection.queue(this, params);
  }

  /** `R`: what the caller says a row is, as for a statement of the main connection. */
  get(...params: unknown[]): R | undefined {
    return this.read('get', params) as R | undefined;
  }

  all(...params: unknown[]): R[] {
    return this.read('all', params) as R[];
  }

  private read(kind: 'get' | 'all', params: unknown[]): unknown {
    return this.connection.call({ kind, id: this.id, sql: this.source, pluck: this.plucked, params });
  }
}

/** The connection on the worker, as the code of one push uses it (see the file header). */
export class WorkerConnection implements PushDb {
  readonly memory = false;
  private inTransaction = false;
  private nextId = 0;
  private queued = new PackedRuns(SEND_VALUES);
  /** Statements the worker has been sent (it keeps them until the transaction ends). */
  private readonly introduced = new Set<number>();

  constructor(private readonly worker: ConnectionWorker) {}

  prepare<R = unknown>(source: string): RemoteStatement<R> {
    return new RemoteStatement<R>(this, ++this.nextId, source);
  }

  exec(source: string): void {
    this.call({ kind: 'exec', sql: source });
  }

  pragma(source: string, options?: { simple?: boolean }): unknown {
    return this.call({ kind: 'pragma', sql: source, simple: options?.simple === true });
  }

  /**
   * `fn` in a transaction of this connection (BEGIN IMMEDIATE, retried while another process holds
   * the lock, as `immediateTransactions` does), followed by the worker's checkpoint once committed
   * (see the file header); a transaction inside one is a savepoint.
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      const nested = this.inTransaction;
      if (nested) this.exec('SAVEPOINT worker_connection');
      else retryBusy(() => this.exec('BEGIN IMMEDIATE'));
      this.inTransaction = true;
      try {
        const result = fn(...args);
        this.exec(nested ? 'RELEASE worker_connection' : 'COMMIT');
        if (!nested) {
          this.inTransaction = false;
          this.introduced.clear();
          // Not waited for: the next call on the worker waits for it.
          if (this.worker.stopped === undefined) this.worker.post({ op: 'checkpoint' });
        }
        return result;
      } catch (err) {
        this.rollback(nested);
        throw err;
      }
    };
  }

  /** Queues a `run` of `statement`; sends the queue when it is large enough. */
  queue(statement: RemoteStatement<unknown>, params: unknown[]): void {
    const first = !this.introduced.has(statement.id);
    if (first) this.introduced.add(statement.id);
    this.queued.add(statement.id, first ? statement.source : undefined, params);
    if (this.queued.values >= SEND_VALUES || this.queued.bytes >= SEND_BYTES) this.send();
  }

  /** Sends a call (after the queued runs) and answers the worker's answer. */
  call(message: Record<string, unknown>): unknown {
    this.send();
    return this.worker.call({ op: 'call', ...message });
  }

  private send(): void {
    if (this.queued.empty) return;
    const packed = this.queued;
    this.queued = new PackedRuns(SEND_VALUES);
    const { message, transfer } = packed.take();
    this.worker.post(message, packed.weight, transfer);
    // Large Buffers (a payload's stored pieces) are held once, not a queue of them.
    if (packed.bytes >= SEND_BYTES) this.worker.waitAll();
    else this.worker.waitInFlight(MAX_IN_FLIGHT);
  }

  private rollback(nested: boolean): void {
    this.queued = new PackedRuns(SEND_VALUES);
    if (!nested) this.inTransaction = false;
    if (this.worker.stopped !== undefined) return;
    try {
      this.exec(nested ? 'ROLLBACK TO worker_connection; RELEASE worker_connection' : 'ROLLBACK');
    } catch {
      // SQLite rolled it back itself (some errors do), or the worker stopped: nothing is left open.
    }
    if (!nested) this.introduced.clear();
  }
}

const workers = new WeakMap<Db, ConnectionWorker>();

/**
 * A connection on a worker thread to the file of `db`, for one push's transaction; undefined for an
 * in-memory database (another connection cannot see it), or when no worker could open the file: the
 * push then writes on the main thread, as a small one does.
 */
export function workerConnection(db: Db): WorkerConnection | undefined {
  if (db.memory) return undefined;
  let worker = workers.get(db);
  if (worker?.stopped !== undefined) worker = undefined;
  if (worker === undefined) {
    worker = new ConnectionWorker(db.name);
    try {
      // Opened? A worker that cannot open the file leaves the push to the main thread.
      worker.call({ op: 'call', kind: 'pragma', sql: 'journal_mode', simple: true });
    } catch {
      worker.stop('the database worker thread could not open the database');
      return undefined;
    }
    workers.set(db, worker);
  }
  return new WorkerConnection(worker);
}

/** Closes the worker connection of `db`, if it has one. Call before `db.close()`. */
export async function closeWorkerConnection(db: Db): Promise<void> {
  const worker = workers.get(db);
  if (worker === undefined) return;
  workers.delete(db);
  await worker.close();
}

/** Ends the worker thread of `db`'s worker connection at once, as a crash would (for tests). */
export function stopWorkerConnection(db: Db): void {
  workers.get(db)?.stop('the database worker thread was stopped');
}
