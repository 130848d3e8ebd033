/**
 * The last-login lookup of one push, built once before the payload is written: with the feature
 * flag on, the single-sign-on activity of each application's `idp_app_id`, keyed by the configured
 * matching property (`idp_sso_user_matching_property`). A full push (JSON, multipart or CSV) looks
 * the activity up in the audit log; an incremental push re-parses the stored submission and replays
 * the activity stored with it. No audit data, no property configured or no `idp_app_id`: the lookup
 * matches nobody and the push goes on unchanged.
 */
import type { PushDb } from '../db/push-db.js';
import type { Db } from '../db/schema.js';
import { auditLogins, featureFlags, MAX_AUDIT_ROWS, SSO_LAST_LOGIN_FLAG } from './audit-store.js';
import { appActivity, ssoLastLoginAt, type AppActivity } from './match.js';

/** The activity stored with a submission: per `idp_app_id`, the latest login per property value. */
export type SubmissionActivity = Record<string, AppActivity>;

/** What the ingest asks for each local user. */
export interface LastLoginLookup {
  /** `sso_last_login_at` of a local user of an application with this `idp_app_id`, or undefined. */
  at(
    idpAppId: string | null | undefined,
    identities: readonly string[] | null | undefined,
  ): string | undefined;
  /** The activity to store with the submission. */
  readonly activity: SubmissionActivity;
}

const MATCHING_PROPERTY = 'idp_sso_user_matching_property';

function idpAppIds(payload: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  const apps = payload.applications;
  if (!Array.isArray(apps)) return ids;
  for (const app of apps as { idp_app_id?: unknown }[])
    if (typeof app.idp_app_id === 'string' && app.idp_app_id !== '') ids.add(app.idp_app_id);
  return ids;
}

/** The activity stored with the data source's submission, or `{}`. */
export function storedActivity(db: Db, dataSourceId: string): SubmissionActivity {
  const row = db
    .prepare<[string], string>('SELECT activity FROM sso_activity WHERE data_source_id = ?')
    .pluck()
    .get(dataSourceId);
  return row === undefined ? {} : (JSON.parse(row) as SubmissionActivity);
}

/** Stores the activity a submission was written with (none: forgets it). Call in the push transaction. */
export function storeActivity(db: PushDb, dataSourceId: string, lookup: LastLoginLookup | undefined): void {
  if (lookup === undefined) {
    db.prepare('DELETE FROM sso_activity WHERE data_source_id = ?').run(dataSourceId);
    return;
  }
  db.prepare(
    'INSERT INTO sso_activity (data_source_id, activity) VALUES (?, ?) ON CONFLICT (data_source_id) DO UPDATE SET activity = excluded.activity',
  ).run(dataSourceId, JSON.stringify(lookup.activity));
}

/** The lookup of one push of an `application` payload; undefined while the feature flag is off. */
export function lastLoginLookup(
  db: Db,
  input: { dataSourceId: string; payload: Record<string, unknown>; replay: boolean },
): LastLoginLookup | undefined {
  if (featureFlags(db)[SSO_LAST_LOGIN_FLAG] !== true) return undefined;
  let activity = Object.create(null) as SubmissionActivity;
  if (input.replay) {
    activity = storedActivity(db, input.dataSourceId);
  } else {
    const property = db
      .prepare<[string], string>('SELECT value FROM configurations WHERE key = ?')
      .pluck()
      .get(MATCHING_PROPERTY);
    if (property !== undefined) {
      for (const id of idpAppIds(input.payload)) {
        const found = appActivity(auditLogins(db, { idpAppId: id, limit: MAX_AUDIT_ROWS }), property);
        if (Object.keys(found).length > 0) activity[id] = found;
      }
    }
  }
  return {
    activity,
    at: (idpAppId, identities) =>
      idpAppId && Object.hasOwn(activity, idpAppId)
        ? ssoLastLoginAt(activity[idpAppId], identities)
        : undefined,
  };
}
