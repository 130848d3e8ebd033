/**
 * A bulk commit's WAL checkpoint runs on a worker thread: the pages reach the database file after
 * the commit without SQLite's automatic checkpoint (which stays on for other commits), and closing
 * lets the worker finish first.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointsDone, closeCheckpointer, commitWithDeferredCheckpoint } from './checkpointer.js';
import { openDatabase, type Db } from './schema.js';

/** Bytes of the rows each test commits: far above SQLite's automatic checkpoint (1000 pages). */
const BYTES = 8 * 1024 * 1024;

let dir: string;
let file: string;
let db: Db;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-emulator-checkpoint-'));
  file = join(dir, 'emulator.db');
  db = openDatabase(file);
  db.exec('CREATE TABLE blobs (data BLOB NOT NULL)');
});
afterEach(async () => {
  await closeCheckpointer(db);
  db.close();
  await rm(dir, { recursive: true, force: true });
});

/** A transaction that writes BYTES of rows. */
function writeRows(): () => number {
  const insert = db.prepare('INSERT INTO blobs (data) VALUES (?)');
  return db.transaction(() => {
    for (let i = 0; i < BYTES / 4096; i++) insert.run(randomBytes(4096));
    return 42;
  });
}

describe('commitWithDeferredCheckpoint', () => {
  it('commits a bulk transaction, then a worker copies its pages into the database file', async () => {
    expect(commitWithDeferredCheckpoint(db, true, writeRows())).toBe(42);
    // SQLite's automatic checkpoint is on again for the next commits.
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointsDone(db);
    expect(statSync(file).size).toBeGreaterThan(BYTES);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: BYTES / 4096 });
  });

  it('leaves other commits to the automatic checkpoint, in the commit', () => {
    commitWithDeferredCheckpoint(db, false, writeRows());
    expect(statSync(file).size).toBeGreaterThan(BYTES);
  });

  it('takes a failed commit without a checkpoint, and keeps the automatic one on', async () => {
    const failing = db.transaction(() => {
      writeRows()();
      throw new Error('rejected');
    });
    expect(() => commitWithDeferredCheckpoint(db, true, failing)).toThrow('rejected');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointsDone(db);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 0 });
  });

  it('answers several bulk commits in a row, and closes after their checkpoints', async () => {
    for (let i = 0; i < 3; i++) commitWithDeferredCheckpoint(db, true, writeRows());
    await closeCheckpointer(db);
    expect(statSync(file).size).toBeGreaterThan(3 * BYTES);
  });

  it('keeps a process with nothing else to do up until its checkpoints are done and it is closed', async () => {
    // Outside the test runner, whose handles keep every process up: a script that commits in bulk,
    // waits for the checkpoint, commits again, closes at once and says so. With its worker
    // unreferenced, the process ended in the middle of the close, the last line never written.
    const dist = (name: string) => new URL(`../../dist/db/${name}.js`, import.meta.url).href;
    const script = join(dir, 'child.mjs');
    await writeFile(
      script,
      `
      import { randomBytes } from 'node:crypto';
      import { checkpointsDone, closeCheckpointer, commitWithDeferredCheckpoint } from ${JSON.stringify(dist('checkpointer'))};
      import { openDatabase } from ${JSON.stringify(dist('schema'))};
      const db = openDatabase(${JSON.stringify(join(dir, 'child.db'))});
      db.exec('CREATE TABLE blobs (data BLOB NOT NULL)');
      const insert = db.prepare('INSERT INTO blobs (data) VALUES (?)');
      const write = db.transaction(() => { for (let i = 0; i < 2048; i++) insert.run(randomBytes(4096)); });
      commitWithDeferredCheckpoint(db, true, write);
      await checkpointsDone(db);
      commitWithDeferredCheckpoint(db, true, write);
      await closeCheckpointer(db);
      const rows = db.prepare('SELECT count(*) AS n FROM blobs').get().n;
      db.close();
      process.stdout.write('closed with ' + rows + ' rows');
      `,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [script]);
    expect(stdout).toBe('closed with 4096 rows');
  }, 60_000);
});
