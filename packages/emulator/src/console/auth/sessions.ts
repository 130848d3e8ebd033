/**
 * Console sign-in sessions: an opaque random id in a cookie, stored as its SHA-256 hash with the
 * user, a CSRF token bound to the session, and an expiry on the emulator clock.
 *
 * A user holds at most `limits.maxSessionsPerUser` sessions: a sign-in past it ends the user's
 * oldest sessions (first signed in) rather than being refused. A user who signs in again (a new
 * browser, a test run) expects it to work, and a session someone forgot in another browser is the
 * one that should go; refusing would lock the user out until a session expires 12 hours later.
 */
import { randomBytes } from 'node:crypto';
import type { ConsoleUser } from '@oaakit/core';
import { hashKey } from '../../auth/api-keys.js';
import type { Db } from '../../db/schema.js';
import { findUser } from './users.js';

/** How long a session lasts after sign-in, on the emulator clock: 12 hours. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** The session cookie's name. */
export const SESSION_COOKIE = 'oaa_emulator_session';

/** A signed-in session. */
export interface ConsoleSession {
  user: ConsoleUser;
  /** The synchronizer token every form of this session carries (see csrf.ts). */
  csrfToken: string;
  expiresAtMs: number;
}

/**
 * Opens a session for `user`, ending the user's oldest ones past `maxPerUser` live sessions; answers
 * the id to put in the cookie (stored only hashed) and how many sessions were ended.
 */
export function openSession(
  db: Db,
  user: ConsoleUser,
  nowMs: number,
  maxPerUser: number,
): { id: string; session: ConsoleSession; ended: number } {
  const id = randomBytes(32).toString('base64url');
  const session: ConsoleSession = {
    user,
    csrfToken: randomBytes(32).toString('base64url'),
    expiresAtMs: nowMs + SESSION_TTL_MS,
  };
  const ended = db.transaction(() => {
    db.prepare('DELETE FROM sessions WHERE expires_at_ms <= ?').run(nowMs);
    db.prepare(
      'INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at_ms) VALUES (?, ?, ?, ?, ?)',
    ).run(hashKey(id), user.sub, session.csrfToken, new Date(nowMs).toISOString(), session.expiresAtMs);
    // Oldest by rowid, the order of sign-in: created_at follows the emulator clock, which can be
    // set back, and many sign-ins can share one millisecond.
    return db
      .prepare(
        `DELETE FROM sessions WHERE user_id = ? AND rowid NOT IN
           (SELECT rowid FROM sessions WHERE user_id = ? ORDER BY rowid DESC LIMIT ?)`,
      )
      .run(user.sub, user.sub, maxPerUser).changes;
  })();
  return { id, session, ended };
}

/** The live session with cookie value `id`, or undefined (unknown, expired, or its user deleted). */
export function findSession(db: Db, id: string, nowMs: number): ConsoleSession | undefined {
  if (id.length === 0 || id.length > 100) return undefined;
  const row = db
    .prepare<[string], { user_id: string; csrf_token: string; expires_at_ms: number }>(
      'SELECT user_id, csrf_token, expires_at_ms FROM sessions WHERE id_hash = ?',
    )
    .get(hashKey(id));
  if (!row || row.expires_at_ms <= nowMs) return undefined;
  const user = findUser(db, row.user_id);
  return user && { user, csrfToken: row.csrf_token, expiresAtMs: row.expires_at_ms };
}

/** Ends the session with cookie value `id` (nothing when there is none). */
export function closeSession(db: Db, id: string): void {
  db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(hashKey(id));
}
