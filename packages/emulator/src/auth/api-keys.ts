/**
 * API keys: stored as SHA-256 hashes, shown once at creation, listed by prefix only. What the real
 * service manages in its administration interface is served under `/_emulator/api_keys`.
 */
import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/schema.js';

/** Roles a key can have. `system_monitoring` may read the private configuration endpoints. */
export const ROLES = ['admin', 'system_monitoring', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** A key to seed at start-up. */
export interface SeedKey {
  /** The secret itself, as clients will send it after `Bearer `. */
  key: string;
  /** Default `admin`. */
  role?: Role;
  name?: string;
}

/** A key as listed: never the key itself. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  role: Role;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** Whether `value` names a role. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * SHA-256 of a secret (an API key, a session id, an OAuth code, token or client secret), hex: the
 * only form one is stored in.
 */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A fresh random key. */
export function generateKey(): string {
  return `oaa_emu_${randomBytes(24).toString('base64url')}`;
}

function prefixOf(key: string): string {
  // Short hand-made keys would be revealed almost whole by a fixed-length prefix.
  return key.slice(0, Math.min(12, Math.floor(key.length / 3)));
}

/** Stores `key` (or a generated one) and returns its record and the key, which is not kept. */
export function createKey(
  db: Db,
  options: { role: Role; name: string; createdAt: string; key?: string },
): { record: ApiKeyRecord; key: string } {
  const key = options.key ?? generateKey();
  const record: ApiKeyRecord = {
    id: randomUUID(),
    name: options.name,
    role: options.role,
    prefix: prefixOf(key),
    created_at: options.createdAt,
    revoked_at: null,
  };
  db.prepare(
    `INSERT INTO api_keys (id, name, role, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (key_hash) DO UPDATE SET role = excluded.role, name = excluded.name, revoked_at = NULL`,
  ).run(record.id, record.name, record.role, hashKey(key), record.prefix, record.created_at);
  const stored = db
    .prepare<[string], ApiKeyRecord>(
      'SELECT id, name, role, prefix, created_at, revoked_at FROM api_keys WHERE key_hash = ?',
    )
    .get(hashKey(key));
  return { record: stored ?? record, key };
}

/** Every key, revoked ones included, oldest first. */
export function listKeys(db: Db): ApiKeyRecord[] {
  return db
    .prepare<[], ApiKeyRecord>(
      'SELECT id, name, role, prefix, created_at, revoked_at FROM api_keys ORDER BY created_at, id',
    )
    .all();
}

/** Revokes key `id`; false when no such key exists. */
export function revokeKey(db: Db, id: string, revokedAt: string): boolean {
  const info = db
    .prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?')
    .run(revokedAt, id);
  return info.changes > 0;
}

/** Key `id`, or undefined. */
export function getKey(db: Db, id: string): ApiKeyRecord | undefined {
  return db
    .prepare<[string], ApiKeyRecord>(
      'SELECT id, name, role, prefix, created_at, revoked_at FROM api_keys WHERE id = ?',
    )
    .get(id);
}

/** Makes revoked key `id` usable again; false when no such key exists. */
export function reinstateKey(db: Db, id: string): boolean {
  return db.prepare('UPDATE api_keys SET revoked_at = NULL WHERE id = ?').run(id).changes > 0;
}

/** Deletes key `id` for good; false when no such key exists. */
export function deleteKey(db: Db, id: string): boolean {
  return db.prepare('DELETE FROM api_keys WHERE id = ?').run(id).changes > 0;
}

/** The id and role of an active key, or undefined when the key is unknown or revoked. */
export function activeKey(db: Db, key: string): { id: string; role: Role } | undefined {
  const row = db
    .prepare<[string], { id: string; role: string }>(
      'SELECT id, role FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
    )
    .get(hashKey(key));
  return row && isRole(row.role) ? { id: row.id, role: row.role } : undefined;
}

/** How many keys are stored, revoked ones included. */
export function countKeys(db: Db): number {
  return db.prepare<[], number>('SELECT count(*) FROM api_keys').pluck().get() ?? 0;
}
