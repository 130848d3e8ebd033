/** Tenant settings kept as JSON documents by key (access-request settings, feature flags). */
import type { Db } from '../db/schema.js';

/** The document stored under `key`, or undefined. */
export function readSetting<T>(db: Db, key: string): T | undefined {
  const row = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
  return row === undefined ? undefined : (JSON.parse(row.value) as T);
}

/** Stores `value` under `key`, replacing what was there. */
export function writeSetting(db: Db, key: string, value: unknown): void {
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, JSON.stringify(value));
}
