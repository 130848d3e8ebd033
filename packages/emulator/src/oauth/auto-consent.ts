/**
 * Headless consent for CI runs of OAuth2 clients: when set, `GET /oauth/authorize` answers at once
 * as the configured user with the configured decision, after every check of the request. Kept in the
 * database's `meta` table, so every process sharing the file sees it.
 */
import type { Db } from '../db/schema.js';

const KEY = 'oauth_auto_consent';

/** The standing decision. */
export interface AutoConsentSetting {
  userId: string;
  decision: 'allow' | 'cancel';
}

/** The standing decision, or undefined when consent is asked on the page. */
export function getAutoConsent(db: Db): AutoConsentSetting | undefined {
  const row = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(KEY);
  return row === undefined ? undefined : (JSON.parse(row.value) as AutoConsentSetting);
}

/** Sets the standing decision, or clears it with undefined. */
export function setAutoConsent(db: Db, setting: AutoConsentSetting | undefined): void {
  if (setting === undefined) db.prepare('DELETE FROM meta WHERE key = ?').run(KEY);
  else
    db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(KEY, JSON.stringify(setting));
}
