/**
 * A bulk commit's WAL checkpoint runs on a worker thread: the pages reach the database file after
 * the commit without SQLite's automatic checkpoint (which stays on for other commits), and closing
 * lets the worker finish first.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointsDone, closeCheckpointer, commitOffThread } from './checkpointer.js';
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

describe('commitOffThread', () => {
  it('commits a bulk transaction, then a worker copies its pages into the database file', async () => {
    expect(commitOffThread(db, true, writeRows())).toBe(42);
    // SQLite's automatic checkpoint is on again for the next commits.
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointsDone(db);
    expect(statSync(file).size).toBeGreaterThan(BYTES);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: BYTES / 4096 });
  });

  it('leaves other commits to the automatic checkpoint, in the commit', () => {
    commitOffThread(db, false, writeRows());
    expect(statSync(file).size).toBeGreaterThan(BYTES);
  });

  it('takes a failed commit without a checkpoint, and keeps the automatic one on', async () => {
    const failing = db.transaction(() => {
      writeRows()();
      throw new Error('rejected');
    });
    expect(() => commitOffThread(db, true, failing)).toThrow('rejected');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointsDone(db);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 0 });
  });

  it('answers several bulk commits in a row, and closes after their checkpoints', async () => {
    for (let i = 0; i < 3; i++) commitOffThread(db, true, writeRows());
    await closeCheckpointer(db);
    expect(statSync(file).size).toBeGreaterThan(3 * BYTES);
  });
});
