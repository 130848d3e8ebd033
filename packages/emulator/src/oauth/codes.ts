/**
 * Authorization codes: random, stored as SHA-256 hashes, valid 10 minutes on the emulator clock,
 * single use. The code's hash names the token family issued from it, so a reused code can revoke
 * those tokens (RFC 6749 §4.1.2).
 */
import { randomBytes } from 'node:crypto';
import { hashKey } from '../auth/api-keys.js';
import type { Db } from '../db/schema.js';

/** How long a code can be exchanged: 10 minutes (spec, Limits). */
export const CODE_TTL_MS = 10 * 60 * 1000;

/** What a code was issued for. */
export interface CodeGrant {
  clientId: string;
  userId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
}

interface CodeRow {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string;
  code_challenge: string;
  expires_at_ms: number;
  used_at_ms: number | null;
}

/** Issues a code for `grant`. */
export function issueCode(db: Db, grant: CodeGrant, nowMs: number): string {
  const code = randomBytes(32).toString('base64url');
  db.prepare('DELETE FROM oauth_codes WHERE expires_at_ms <= ?').run(nowMs - CODE_TTL_MS);
  db.prepare(
    `INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, expires_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    hashKey(code),
    grant.clientId,
    grant.userId,
    grant.redirectUri,
    grant.scope,
    grant.codeChallenge,
    nowMs + CODE_TTL_MS,
  );
  return code;
}

/** The outcome of presenting a code. */
export type ConsumedCode =
  | { kind: 'ok'; grant: CodeGrant; family: string }
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'reused'; family: string; clientId: string };

/** Marks `code` used and answers what it was issued for; a second use answers `reused`. */
export function consumeCode(db: Db, code: string, nowMs: number): ConsumedCode {
  if (code.length === 0 || code.length > 200) return { kind: 'unknown' };
  const hash = hashKey(code);
  return db.transaction((): ConsumedCode => {
    const row = db.prepare<[string], CodeRow>('SELECT * FROM oauth_codes WHERE code_hash = ?').get(hash);
    if (!row) return { kind: 'unknown' };
    if (row.used_at_ms !== null) return { kind: 'reused', family: hash, clientId: row.client_id };
    db.prepare('UPDATE oauth_codes SET used_at_ms = ? WHERE code_hash = ?').run(nowMs, hash);
    if (row.expires_at_ms <= nowMs) return { kind: 'expired' };
    return {
      kind: 'ok',
      family: hash,
      grant: {
        clientId: row.client_id,
        userId: row.user_id,
        redirectUri: row.redirect_uri,
        scope: row.scope,
        codeChallenge: row.code_challenge,
      },
    };
  })();
}
