/**
 * The audit activity of the external identity provider (single-sign-on logins per application) and
 * the feature flags, set under `/_emulator` (the service gets them from an integration and from its
 * operator). Bounded: at most {@link MAX_AUDIT_ROWS} logins are stored.
 */
import type { Db } from '../db/schema.js';
import { readSetting } from '../store/settings.js';
import type { AuditLogin } from './match.js';

/** Most audit logins stored at once. */
export const MAX_AUDIT_ROWS = 100_000;
/** The feature flag of last-login enrichment. */
export const SSO_LAST_LOGIN_FLAG = 'INTEG_OAA_SSO_LAST_LOGIN';
/** The feature flags the emulator knows, all off until set. */
export const FEATURE_FLAGS = [SSO_LAST_LOGIN_FLAG] as const;
/** The settings key of the feature flags. */
export const FEATURE_FLAGS_KEY = 'feature_flags';

/** One stored login, as `/_emulator/idp_audit_activity` shows it. */
export interface AuditRecord extends AuditLogin {
  idp_app_id: string;
}

/** The current feature flags, every known one present. */
export function featureFlags(db: Db): Record<string, boolean> {
  const stored = readSetting<Record<string, boolean>>(db, FEATURE_FLAGS_KEY) ?? {};
  return Object.fromEntries(FEATURE_FLAGS.map((f) => [f, stored[f] === true]));
}

/** How many logins are stored. */
export function auditCount(db: Db): number {
  return db.prepare<[], number>('SELECT count(*) FROM idp_audit_activity').pluck().get() ?? 0;
}

/** Appends logins. The caller checks the bound. */
export function addAuditLogins(db: Db, logins: readonly AuditRecord[]): void {
  const insert = db.prepare('INSERT INTO idp_audit_activity (idp_app_id, at, user) VALUES (?, ?, ?)');
  for (const l of logins) insert.run(l.idp_app_id, l.timestamp, JSON.stringify(l.user));
}

/** Stored logins, oldest first, optionally of one application. */
export function auditLogins(
  db: Db,
  options: { idpAppId?: string | undefined; limit: number },
): AuditRecord[] {
  const rows =
    options.idpAppId === undefined
      ? db
          .prepare<[number], { idp_app_id: string; at: string; user: string }>(
            'SELECT idp_app_id, at, user FROM idp_audit_activity ORDER BY seq LIMIT ?',
          )
          .all(options.limit)
      : db
          .prepare<[string, number], { idp_app_id: string; at: string; user: string }>(
            'SELECT idp_app_id, at, user FROM idp_audit_activity WHERE idp_app_id = ? ORDER BY seq LIMIT ?',
          )
          .all(options.idpAppId, options.limit);
  return rows.map((r) => ({
    idp_app_id: r.idp_app_id,
    timestamp: r.at,
    user: JSON.parse(r.user) as Record<string, string>,
  }));
}

/** Removes the logins of one application, or all; answers how many went. */
export function clearAuditLogins(db: Db, idpAppId?: string): number {
  return idpAppId === undefined
    ? db.prepare('DELETE FROM idp_audit_activity').run().changes
    : db.prepare('DELETE FROM idp_audit_activity WHERE idp_app_id = ?').run(idpAppId).changes;
}
