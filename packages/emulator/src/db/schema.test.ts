/**
 * The schema version of a database file: a file of the version before (whose changes since only
 * added tables) is upgraded when opened; a file of another version is refused with what to do.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, SCHEMA_VERSION } from './schema.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-emulator-schema-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function writtenAs(file: string, version: string): void {
  const db = openDatabase(file);
  db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(version);
  db.close();
}

function versionOf(file: string): string | undefined {
  const db = openDatabase(file);
  try {
    return db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").get()
      ?.value;
  } finally {
    db.close();
  }
}

describe('openDatabase', () => {
  it('writes the current schema version into a new file', () => {
    expect(versionOf(join(dir, 'new.db'))).toBe(String(SCHEMA_VERSION));
  });

  it('upgrades a file of version 1, keeping its rows', () => {
    const file = join(dir, 'v1.db');
    const db = openDatabase(file);
    db.prepare("INSERT INTO meta (key, value) VALUES ('kept', 'yes')").run();
    db.close();
    writtenAs(file, '1');
    expect(versionOf(file)).toBe('2');
    const again = openDatabase(file);
    expect(again.prepare("SELECT value FROM meta WHERE key = 'kept'").get()).toEqual({ value: 'yes' });
    again.close();
  });

  it('refuses a file of a later version, naming both versions and what to do', () => {
    const file = join(dir, 'later.db');
    writtenAs(file, '3');
    expect(() => openDatabase(file)).toThrow(
      /has schema version 3; this emulator reads version 2 \(and upgrades 1\): open it with the emulator that wrote it, or start with a new file/,
    );
  });
});
