/**
 * OAuth2 apps and their client secrets. A secret is answered once, at creation; afterwards only its
 * first 4 characters. Secrets are stored as SHA-256 hashes. Revoking an app revokes every token it
 * holds at once; deleting it removes its secrets, codes and tokens (foreign keys cascade).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { MAX_CLIENT_SECRETS, type OAuthApp, type OAuthAppCreate, type OAuthSecret } from '@oaakit/core';
import { hashKey } from '../auth/api-keys.js';
import type { Db } from '../db/schema.js';

/** The stored part of an app (secrets are read from their own table). */
type AppRecord = Omit<OAuthApp, 'secrets' | 'state'>;

interface AppRow {
  record: string;
  revoked_at: string | null;
}

/** How many characters of a secret stay visible. */
export const SECRET_PREFIX_LENGTH = 4;

function generateSecret(): string {
  // No fixed prefix: the first 4 characters are all that stays visible, so they must tell secrets apart.
  return randomBytes(32).toString('base64url');
}

function secretsOf(db: Db, clientId: string): OAuthSecret[] {
  return db
    .prepare<[string], OAuthSecret>(
      'SELECT id AS secret_id, prefix, created_at, last_used_at FROM oauth_secrets WHERE client_id = ? ORDER BY created_at, rowid',
    )
    .all(clientId);
}

function view(db: Db, row: AppRow): OAuthApp {
  const record = JSON.parse(row.record) as AppRecord;
  return {
    ...record,
    state: row.revoked_at === null ? 'ACTIVE' : 'REVOKED',
    secrets: secretsOf(db, record.client_id),
  };
}

/** The app `clientId`, or undefined. */
export function getApp(db: Db, clientId: string): OAuthApp | undefined {
  const row = db
    .prepare<[string], AppRow>('SELECT record, revoked_at FROM oauth_apps WHERE client_id = ?')
    .get(clientId);
  return row && view(db, row);
}

/** Every app, oldest first. */
export function listApps(db: Db): OAuthApp[] {
  return db
    .prepare<[], AppRow>('SELECT record, revoked_at FROM oauth_apps ORDER BY seq')
    .all()
    .map((row) => view(db, row));
}

function insertSecret(db: Db, clientId: string, at: string): { secret_id: string; client_secret: string } {
  const secret = generateSecret();
  const id = randomUUID();
  db.prepare(
    'INSERT INTO oauth_secrets (id, client_id, secret_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(id, clientId, hashKey(secret), secret.slice(0, SECRET_PREFIX_LENGTH), at);
  return { secret_id: id, client_secret: secret };
}

/** Creates an app with its first secret; the answer is the only time the secret is shown. */
export function createApp(
  db: Db,
  input: OAuthAppCreate,
  at: string,
): { app: OAuthApp; secret: { secret_id: string; client_secret: string } } {
  const record: AppRecord = {
    client_id: randomUUID(),
    client_name: input.client_name,
    base_url: input.base_url,
    redirect_uris: input.redirect_uris,
    allowed_scopes: [...new Set(input.allowed_scopes)],
    allow_any_redirect_uri: input.allow_any_redirect_uri ?? false,
    created_at: at,
    updated_at: at,
  };
  const secret = db.transaction(() => {
    db.prepare('INSERT INTO oauth_apps (client_id, record) VALUES (?, ?)').run(
      record.client_id,
      JSON.stringify(record),
    );
    return insertSecret(db, record.client_id, at);
  })();
  return { app: getApp(db, record.client_id)!, secret };
}

/** Adds a secret; `'full'` when the app already has the most it may hold. */
export function addSecret(
  db: Db,
  clientId: string,
  at: string,
): { secret_id: string; client_secret: string } | 'full' {
  return db.transaction(() => {
    if (secretsOf(db, clientId).length >= MAX_CLIENT_SECRETS) return 'full' as const;
    return insertSecret(db, clientId, at);
  })();
}

/** Removes one secret; false when the app has no such secret. */
export function deleteSecret(db: Db, clientId: string, secretId: string): boolean {
  return (
    db.prepare('DELETE FROM oauth_secrets WHERE client_id = ? AND id = ?').run(clientId, secretId).changes > 0
  );
}

/** Revokes the app and, at once, every token it was issued and every unused code. */
export function revokeApp(db: Db, clientId: string, at: string, nowMs: number): void {
  db.transaction(() => {
    db.prepare('UPDATE oauth_apps SET revoked_at = coalesce(revoked_at, ?) WHERE client_id = ?').run(
      at,
      clientId,
    );
    db.prepare('UPDATE oauth_tokens SET revoked_at_ms = coalesce(revoked_at_ms, ?) WHERE client_id = ?').run(
      nowMs,
      clientId,
    );
    db.prepare('DELETE FROM oauth_codes WHERE client_id = ?').run(clientId);
  })();
}

/** Lets a revoked app authenticate again (its old tokens stay revoked). */
export function reinstateApp(db: Db, clientId: string): void {
  db.prepare('UPDATE oauth_apps SET revoked_at = NULL WHERE client_id = ?').run(clientId);
}

/** Deletes the app with its secrets, codes and tokens. */
export function deleteApp(db: Db, clientId: string): boolean {
  return db.prepare('DELETE FROM oauth_apps WHERE client_id = ?').run(clientId).changes > 0;
}

/**
 * Client authentication for the token endpoint: the active app whose secret is `secret` (recording
 * the secret's last use), or undefined for an unknown app, a wrong secret or a revoked app.
 */
export function authenticateClient(
  db: Db,
  clientId: string,
  secret: string,
  at: string,
): OAuthApp | undefined {
  const app = getApp(db, clientId);
  if (!app || app.state !== 'ACTIVE' || secret.length === 0 || secret.length > 200) return undefined;
  const info = db
    .prepare('UPDATE oauth_secrets SET last_used_at = ? WHERE client_id = ? AND secret_hash = ?')
    .run(at, clientId, hashKey(secret));
  return info.changes > 0 ? getApp(db, clientId) : undefined;
}
