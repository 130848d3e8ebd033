/**
 * One database file, two processes writing (two `oaa run` on the embedded emulator): a transaction
 * that read before another connection committed must not fail with `database is locked` when it
 * writes. The other connection runs in a worker thread, and the two hand over through shared
 * memory, so the other one's write lands exactly between this transaction's read and its write.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './schema.js';
import type { Db } from './schema.js';
import { SQLITE_BINDING } from './sqlite.js';

/** The other process: waits for flag 0, inserts a row, reports in flag 1 (1 done, 2 failed). */
const OTHER_WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.binding);
const flags = new Int32Array(workerData.flags);
const db = new Database(workerData.file, { timeout: 30000 });
parentPort.postMessage('ready');
Atomics.wait(flags, 0, 0);
let outcome = 1;
try {
  db.prepare("INSERT INTO meta (key, value) VALUES ('other', 'x')").run();
} catch {
  outcome = 2;
}
db.close();
Atomics.store(flags, 1, outcome);
Atomics.notify(flags, 1);
`;

let dir: string;
let db: Db;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-emulator-busy-'));
  db = openDatabase(join(dir, 'emulator.db'));
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('transactions on a database another process writes to', () => {
  it('wait for the other writer instead of failing when it commits between a read and a write', async () => {
    const flags = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(OTHER_WRITER, {
      eval: true,
      workerData: {
        binding: createRequire(import.meta.url).resolve(SQLITE_BINDING),
        file: join(dir, 'emulator.db'),
        flags: flags.buffer,
      },
    });
    const exited = once(worker, 'exit');
    await once(worker, 'message');

    db.transaction(() => {
      db.prepare('SELECT count(*) FROM meta').get();
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      // The other writer commits now if it can; holding the write lock, this transaction keeps it
      // waiting (up to this bound) until it commits itself.
      Atomics.wait(flags, 1, 0, 1_000);
      db.prepare("INSERT INTO meta (key, value) VALUES ('this', 'x')").run();
    })();
    await exited;

    expect(flags[1]).toBe(1);
    const keys = db.prepare<[], string>("SELECT key FROM meta WHERE value = 'x' ORDER BY key").pluck().all();
    expect(keys).toEqual(['other', 'this']);
  });
});
