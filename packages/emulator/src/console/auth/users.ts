/**
 * Console users: who signs in to the console and consents to OAuth2 apps. Managed under
 * `/_emulator/users`; their `sub`, email and names are what `/oauth/userinfo` answers.
 */
import { randomUUID } from 'node:crypto';
import type { ConsoleUser, UserCreate } from '@oaakit/core';
import type { Db } from '../../db/schema.js';
import { hashPassword } from './passwords.js';

interface UserRow {
  id: string;
  email: string;
  given_name: string;
  family_name: string;
  password_hash: string;
  created_at: string;
}

const COLUMNS = 'id, email, given_name, family_name, password_hash, created_at';

function view(row: UserRow): ConsoleUser {
  return {
    sub: row.id,
    email: row.email,
    given_name: row.given_name,
    family_name: row.family_name,
    name: `${row.given_name} ${row.family_name}`,
    created_at: row.created_at,
  };
}

/** Emails are compared case-insensitively: stored lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Creates a user; undefined when the email is taken. */
export async function createUser(
  db: Db,
  input: UserCreate,
  createdAt: string,
): Promise<ConsoleUser | undefined> {
  const passwordHash = await hashPassword(input.password);
  const row: UserRow = {
    id: randomUUID(),
    email: normalizeEmail(input.email),
    given_name: input.given_name,
    family_name: input.family_name,
    password_hash: passwordHash,
    created_at: createdAt,
  };
  const info = db
    .prepare(`INSERT INTO users (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING`)
    .run(row.id, row.email, row.given_name, row.family_name, row.password_hash, row.created_at);
  return info.changes === 0 ? undefined : view(row);
}

/** Every user, oldest first. */
export function listUsers(db: Db): ConsoleUser[] {
  return db.prepare<[], UserRow>(`SELECT ${COLUMNS} FROM users ORDER BY seq`).all().map(view);
}

/** The user with id (sub) or email `idOrEmail`. */
export function findUser(db: Db, idOrEmail: string): ConsoleUser | undefined {
  const row = userRow(db, idOrEmail);
  return row && view(row);
}

/** The user and the stored password hash, for signing in. */
export function userWithPassword(
  db: Db,
  email: string,
): { user: ConsoleUser; passwordHash: string } | undefined {
  const row = db
    .prepare<[string], UserRow>(`SELECT ${COLUMNS} FROM users WHERE email = ?`)
    .get(normalizeEmail(email));
  return row && { user: view(row), passwordHash: row.password_hash };
}

function userRow(db: Db, idOrEmail: string): UserRow | undefined {
  return db
    .prepare<[string, string], UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = ? OR email = ?`)
    .get(idOrEmail, normalizeEmail(idOrEmail));
}

/** Deletes a user with their sessions, codes and tokens; the deleted user, or undefined. */
export function deleteUser(db: Db, idOrEmail: string): ConsoleUser | undefined {
  const row = userRow(db, idOrEmail);
  if (!row) return undefined;
  db.prepare('DELETE FROM users WHERE id = ?').run(row.id);
  return view(row);
}
