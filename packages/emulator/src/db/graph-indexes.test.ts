/**
 * The node-query indexes a bulk ingest leaves to the first query: built then, inside or outside a
 * transaction, and left for later (without failing the query) while another connection to the file
 * holds the write lock.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUSY_TIMEOUT_MS } from './busy.js';
import { createNodeIdIndex, dropGraphIndexes, ensureQueryIndexes, hasQueryIndexes } from './graph-indexes.js';
import { openDatabase, type Db } from './schema.js';

let dir: string;
let db: Db;
let other: Db;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-emulator-indexes-'));
  db = openDatabase(join(dir, 'emulator.db'));
  other = openDatabase(join(dir, 'emulator.db'));
  // As a bulk ingest leaves them.
  db.transaction(() => {
    dropGraphIndexes(db);
    createNodeIdIndex(db);
  })();
});
afterEach(async () => {
  other.close();
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const indexNames = (d: Db) =>
  d.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name").pluck().all();

describe('node-query indexes after a bulk ingest', () => {
  it('are missing until the first query builds them, for every connection to the file', () => {
    expect(hasQueryIndexes(db)).toBe(false);
    expect(indexNames(db)).toContain('nodes_by_id');
    ensureQueryIndexes(db);
    expect(hasQueryIndexes(db)).toBe(true);
    expect(hasQueryIndexes(other)).toBe(true);
    expect(indexNames(db)).toEqual(
      expect.arrayContaining([
        'nodes_by_type',
        'edges_by_src',
        'edges_by_dst',
        'edges_by_scope',
        'edges_by_ref',
      ]),
    );
  });

  it('are built inside a transaction that is open', () => {
    db.transaction(() => ensureQueryIndexes(db))();
    expect(hasQueryIndexes(db)).toBe(true);
  });

  it('are left for later while another connection writes, and the query goes on', () => {
    other.exec('BEGIN IMMEDIATE');
    expect(() => ensureQueryIndexes(db)).not.toThrow();
    expect(hasQueryIndexes(db)).toBe(false);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
    expect(db.prepare('SELECT count(*) AS n FROM edges WHERE src = 1').get()).toEqual({ n: 0 });
    other.exec('COMMIT');
    ensureQueryIndexes(db);
    expect(hasQueryIndexes(db)).toBe(true);
  });
});
