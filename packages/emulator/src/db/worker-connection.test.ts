/**
 * The connection on a worker thread that bulk pushes write on: its transaction is one transaction
 * (the main connection sees all of it after the commit, nothing before), a failed write or a thrown
 * error rolls all of it back, and a worker that stops in the middle of writing a graph leaves the
 * previous graph as it was, the next write starting a new worker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GraphWriter } from '../graph/writer.js';
import type { PushDb } from './push-db.js';
import { openDatabase, type Db } from './schema.js';
import { closeWorkerConnection, stopWorkerConnection, workerConnection } from './worker-connection.js';

let dir: string;
let db: Db;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-emulator-worker-connection-'));
  db = openDatabase(join(dir, 'emulator.db'));
});
afterEach(async () => {
  await closeWorkerConnection(db);
  db.close();
  await rm(dir, { recursive: true, force: true });
});

/** The worker connection of `db`, typed as the push code takes it. */
function onWorker(): PushDb {
  const connection = workerConnection(db);
  if (connection === undefined) throw new Error('a file database has a worker connection');
  return connection;
}

function metaValue(key: string): string | undefined {
  return db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck().get(key);
}

/** Writes `count` user nodes of data source `ds` through a GraphWriter on `conn`; `each` runs after each. */
function writeUsers(conn: PushDb, ds: string, count: number, each: (i: number) => void = () => undefined) {
  const w = new GraphWriter(conn, ds, 'provider');
  for (let i = 0; i < count; i++) {
    w.node({ kind: 'user', key: `u${i}`, type: 'OAA.t.User', name: `u${i}`, properties: { i } });
    each(i);
  }
  return w.ranges();
}

function nodeNames(ds: string): string[] {
  return db
    .prepare<[string], string>('SELECT name FROM nodes WHERE data_source_id = ? ORDER BY rid')
    .pluck()
    .all(ds);
}

describe('workerConnection', () => {
  it('is not offered for an in-memory database, which no other connection can see', () => {
    const memory = openDatabase(':memory:');
    expect(workerConnection(memory)).toBeUndefined();
    memory.close();
  });

  it('answers reads in its transaction and commits queued writes, which the main connection sees after the commit', () => {
    const conn = onWorker();
    let seenInside: string | undefined = 'unread';
    conn.transaction(() => {
      conn.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('a', 'one');
      conn.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('b', 'two');
      expect(conn.prepare('SELECT value FROM meta WHERE key = ?').pluck().get('b')).toBe('two');
      expect(
        conn.prepare('SELECT key, value FROM meta WHERE key IN (?, ?) ORDER BY key').all('a', 'b'),
      ).toEqual([
        { key: 'a', value: 'one' },
        { key: 'b', value: 'two' },
      ]);
      seenInside = metaValue('a');
    })();
    expect(seenInside).toBeUndefined();
    expect([metaValue('a'), metaValue('b')]).toEqual(['one', 'two']);
  });

  it('binds every kind of value a run takes as the main connection does (packed for the worker)', () => {
    db.exec('CREATE TABLE kinds (a, b, c)');
    const rows: unknown[][] = [
      [1, 2.5, -0],
      ['text', '', 'ünïcode ✓'],
      [null, 2 ** 53 - 1, 1234567890123456789n],
      [
        Buffer.from('blob'),
        Buffer.from('a pooled slice of a larger buffer').subarray(2, 8),
        new Uint8Array(0),
      ],
    ];
    const conn = onWorker();
    conn.transaction(() => {
      const insert = conn.prepare('INSERT INTO kinds (a, b, c) VALUES (?, ?, ?)');
      insert.run(rows[0]!);
      insert.run(...rows[1]!);
      insert.run(rows[2]!);
      insert.run(...rows[3]!);
      conn.prepare('INSERT INTO kinds (a, b, c) VALUES (@x, @y, @z)').run({ x: 'named', y: 7, z: null });
    })();
    const direct = openDatabase(':memory:');
    direct.exec('CREATE TABLE kinds (a, b, c)');
    const insert = direct.prepare('INSERT INTO kinds (a, b, c) VALUES (?, ?, ?)');
    for (const row of rows) insert.run(row);
    direct.prepare('INSERT INTO kinds (a, b, c) VALUES (@x, @y, @z)').run({ x: 'named', y: 7, z: null });
    const read = (d: Db) =>
      d
        .prepare('SELECT typeof(a), a, typeof(b), b, typeof(c), c FROM kinds ORDER BY rowid')
        .safeIntegers()
        .all();
    expect(read(db)).toEqual(read(direct));
    direct.close();
  });

  it('rolls the whole transaction back when a queued write fails, and throws its SQLite error', () => {
    const conn = onWorker();
    const insert = conn.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    const write = conn.transaction(() => {
      insert.run('c', 'first');
      insert.run('c', 'again');
      insert.run('d', 'after');
    });
    expect(write).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }));
    expect([metaValue('c'), metaValue('d')]).toEqual([undefined, undefined]);
    // The connection is usable again.
    conn.transaction(() => insert.run('c', 'later'))();
    expect(metaValue('c')).toBe('later');
  });

  it('rolls back when the transaction throws', () => {
    const conn = onWorker();
    const write = conn.transaction(() => {
      conn.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('e', 'kept?');
      throw new Error('a violation found late');
    });
    expect(write).toThrow('a violation found late');
    expect(metaValue('e')).toBeUndefined();
  });

  it('fails a write whose worker stops midway, keeps the previous graph, and writes the next one on a new worker', () => {
    const first = onWorker();
    first.transaction(() => writeUsers(first, 'ds', 5_000))();
    const before = nodeNames('ds');
    expect(before).toHaveLength(5_000);

    const second = onWorker();
    const write = second.transaction(() => {
      second.prepare('DELETE FROM nodes WHERE data_source_id = ?').run('ds');
      writeUsers(second, 'ds', 50_000, (i) => {
        if (i === 20_000) stopWorkerConnection(db);
      });
    });
    expect(write).toThrow(/worker thread/);
    expect(nodeNames('ds')).toEqual(before);

    const third = onWorker();
    third.transaction(() => {
      third.prepare('DELETE FROM nodes WHERE data_source_id = ?').run('ds');
      writeUsers(third, 'ds', 3);
    })();
    expect(nodeNames('ds')).toEqual(['u0', 'u1', 'u2']);
  });
});
