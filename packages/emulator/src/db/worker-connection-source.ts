/**
 * The code of the worker thread of `worker-connection.ts` (CommonJS, run with `eval`, so it needs no
 * file of its own next to the compiled or the TypeScript sources): one better-sqlite3 connection to
 * the database file, opened as `openDatabase` opens one, without the automatic WAL checkpoint.
 * Messages:
 *
 * - `{ op: 'runs', runs: [id, sql | undefined, count, ...], kinds, numbers, strings, others }`: runs
 *   each statement (prepared at its first use, by id) with its `count` values, unpacked in order
 *   (`packed-runs.ts`: a null, a number, the next string or the next other value, by kind); answers
 *   nothing. After an error, later runs are skipped and the error is the
 *   answer of the next call (but a ROLLBACK, which it lets through).
 * - `{ op: 'call', kind: 'exec' | 'pragma' | 'get' | 'all', ... }`: answers `{ value }` or
 *   `{ error: { message, code, name } }` on the reply port.
 * - `{ op: 'checkpoint' }`: a PASSIVE WAL checkpoint (after each commit); answers nothing.
 * - `{ op: 'close' }`: closes the connection; the thread ends.
 *
 * After each message, the shared counter `signal[SIGNAL_HANDLED]` goes up (the main thread waits on
 * it); when the thread ends, `signal[SIGNAL_STOPPED]` becomes 1. The kinds and the slots are
 * written into the source from the constants the main thread uses.
 */
import { PACKED_NULL, PACKED_NUMBER, PACKED_STRING } from './packed-runs.js';

/** Slots of the shared counters: messages the worker handled, and whether it stopped. */
export const SIGNAL_HANDLED = 0;
export const SIGNAL_STOPPED = 1;
/** Bytes of the shared counters. */
export const SIGNAL_BYTES = 2 * Int32Array.BYTES_PER_ELEMENT;

export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const [HANDLED, STOPPED] = [${SIGNAL_HANDLED}, ${SIGNAL_STOPPED}];
const [NULL, NUMBER, STRING] = [${PACKED_NULL}, ${PACKED_NUMBER}, ${PACKED_STRING}];
const signal = new Int32Array(workerData.signal);
const replies = workerData.replies;
process.on('exit', () => {
  Atomics.store(signal, STOPPED, 1);
  Atomics.notify(signal, HANDLED);
});
const described = (err) => ({
  message: String((err && err.message) || err),
  code: err && typeof err.code === 'string' ? err.code : undefined,
  name: err && typeof err.name === 'string' ? err.name : undefined,
});
let db;
let openError;
try {
  const Database = require(workerData.binding);
  db = new Database(workerData.file, { timeout: workerData.timeout });
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -' + workerData.cacheKib);
  db.pragma('wal_autocheckpoint = 0');
} catch (err) {
  openError = described(err);
}
const statements = new Map();
let failure;
function statement(id, sql) {
  let s = statements.get(id);
  if (s === undefined) {
    if (typeof sql !== 'string') throw new Error('statement ' + id + ' was never prepared');
    s = db.prepare(sql);
    statements.set(id, s);
  }
  return s;
}
function reader(m) {
  const s = statement(m.id, m.sql);
  if (s.reader) s.pluck(m.pluck);
  return s;
}
function call(m) {
  if (openError) throw openError;
  const ending = m.kind === 'exec' && (m.sql === 'COMMIT' || m.sql === 'ROLLBACK');
  if (failure !== undefined && !(ending && m.sql === 'ROLLBACK')) throw failure;
  switch (m.kind) {
    case 'exec':
      try {
        db.exec(m.sql);
      } finally {
        if (ending) {
          statements.clear();
          failure = undefined;
        }
      }
      return undefined;
    case 'pragma':
      return db.pragma(m.sql, { simple: m.simple });
    case 'get':
      return reader(m).get(...m.params);
    case 'all':
      return reader(m).all(...m.params);
    default:
      throw new Error('unknown call ' + m.kind);
  }
}
parentPort.on('message', (m) => {
  if (m.op === 'runs') {
    if (failure === undefined && openError === undefined) {
      const { runs, kinds, numbers, strings, others } = m;
      let n = 0;
      let s = 0;
      let o = 0;
      try {
        for (let i = 0; i < runs.length; i += 3) {
          const count = runs[i + 2];
          const args = new Array(count);
          for (let k = 0; k < count; k++, n++) {
            const kind = kinds[n];
            args[k] = kind === NUMBER ? numbers[n] : kind === STRING ? strings[s++] : kind === NULL ? null : others[o++];
          }
          statement(runs[i], runs[i + 1]).run(...args);
        }
      } catch (err) {
        failure = described(err);
      }
    }
  } else if (m.op === 'call') {
    let reply;
    try {
      reply = { value: call(m) };
    } catch (err) {
      reply = { error: err === failure || err === openError ? err : described(err) };
    }
    replies.postMessage(reply);
  } else if (m.op === 'checkpoint') {
    try {
      if (db) db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Left to a later checkpoint (an automatic one of the main connection).
    }
  } else if (m.op === 'close') {
    if (db) db.close();
    replies.close();
    parentPort.close();
  }
  Atomics.add(signal, HANDLED, 1);
  Atomics.notify(signal, HANDLED);
});
`;
