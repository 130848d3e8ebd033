/**
 * Access and refresh tokens: random, stored as SHA-256 hashes with their family (the code they
 * descend from), scope and expiry on the emulator clock. Checked against this stored state on every
 * request: a revoked, expired or deleted token, or one of a revoked app, fails at its next use.
 */
import { randomBytes } from 'node:crypto';
import type { OAuthScope } from '@oaakit/core';
import { hashKey } from '../auth/api-keys.js';
import type { Db } from '../db/schema.js';

/** Access token lifetime: 12 hours (`expires_in` 43200). */
export const ACCESS_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
/** Refresh token lifetime: 30 days. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Access tokens start with this, so the bearer check knows them from API keys. */
export const ACCESS_TOKEN_PREFIX = 'oaa_at_';
const REFRESH_TOKEN_PREFIX = 'oaa_rt_';

/** Who an access token acts for, and within which scopes. */
export interface TokenGrant {
  clientId: string;
  userId: string;
  scopes: OAuthScope[];
}

/** A freshly issued pair, as the token endpoint answers it. */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

interface TokenRow {
  kind: 'access' | 'refresh';
  client_id: string;
  user_id: string;
  family: string;
  scope: string;
  expires_at_ms: number;
  revoked_at_ms: number | null;
  app_revoked_at: string | null;
}

function insert(
  db: Db,
  kind: 'access' | 'refresh',
  token: string,
  g: { clientId: string; userId: string; family: string; scope: string },
  expiresAtMs: number,
): void {
  db.prepare(
    'INSERT INTO oauth_tokens (token_hash, kind, client_id, user_id, family, scope, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(hashKey(token), kind, g.clientId, g.userId, g.family, g.scope, expiresAtMs);
}

/** Issues an access and refresh token in `family`. */
export function issuePair(
  db: Db,
  g: { clientId: string; userId: string; family: string; scope: string },
  nowMs: number,
): TokenPair {
  const access = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const refresh = `${REFRESH_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  db.transaction(() => {
    insert(db, 'access', access, g, nowMs + ACCESS_TOKEN_TTL_MS);
    insert(db, 'refresh', refresh, g, nowMs + REFRESH_TOKEN_TTL_MS);
  })();
  return {
    access_token: access,
    refresh_token: refresh,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    scope: g.scope,
  };
}

function row(db: Db, token: string): TokenRow | undefined {
  if (token.length === 0 || token.length > 200) return undefined;
  return db
    .prepare<[string], TokenRow>(
      `SELECT t.kind, t.client_id, t.user_id, t.family, t.scope, t.expires_at_ms, t.revoked_at_ms, a.revoked_at AS app_revoked_at
       FROM oauth_tokens t JOIN oauth_apps a ON a.client_id = t.client_id WHERE t.token_hash = ?`,
    )
    .get(hashKey(token));
}

/** Revokes every live token of `family`. */
export function revokeFamily(db: Db, family: string, nowMs: number): void {
  db.prepare('UPDATE oauth_tokens SET revoked_at_ms = ? WHERE family = ? AND revoked_at_ms IS NULL').run(
    nowMs,
    family,
  );
}

/** The grant of a live access token, or undefined (unknown, expired, revoked, app revoked or gone). */
export function findAccessToken(db: Db, token: string, nowMs: number): TokenGrant | undefined {
  const r = row(db, token);
  if (!r || r.kind !== 'access' || r.revoked_at_ms !== null || r.app_revoked_at !== null) return undefined;
  if (r.expires_at_ms <= nowMs) return undefined;
  return { clientId: r.client_id, userId: r.user_id, scopes: r.scope.split(' ') as OAuthScope[] };
}

/** The outcome of a refresh. */
export type Refreshed =
  | { kind: 'ok'; pair: TokenPair }
  | { kind: 'invalid'; reason: string }
  /** A revoked refresh token was presented: its whole family is now revoked (RFC 9700 §4.14.2). */
  | { kind: 'reused' };

/**
 * Rotates `refreshToken` of `clientId`: revokes the previous access and refresh tokens and issues a
 * new pair in the same family. Presenting a revoked refresh token revokes the whole family.
 */
export function rotateRefreshToken(db: Db, refreshToken: string, clientId: string, nowMs: number): Refreshed {
  return db.transaction((): Refreshed => {
    const r = row(db, refreshToken);
    if (!r || r.kind !== 'refresh') return { kind: 'invalid', reason: 'the refresh token is unknown' };
    if (r.client_id !== clientId)
      return { kind: 'invalid', reason: 'the refresh token was issued to another client' };
    if (r.revoked_at_ms !== null) {
      revokeFamily(db, r.family, nowMs);
      return { kind: 'reused' };
    }
    if (r.expires_at_ms <= nowMs) return { kind: 'invalid', reason: 'the refresh token has expired' };
    revokeFamily(db, r.family, nowMs);
    const pair = issuePair(db, { clientId, userId: r.user_id, family: r.family, scope: r.scope }, nowMs);
    return { kind: 'ok', pair };
  })();
}
