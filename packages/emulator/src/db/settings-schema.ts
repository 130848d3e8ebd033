/**
 * Tables of the settings the service keeps beside the graph: tenant settings as JSON documents
 * (access-request settings, feature flags), email notification templates, the identity provider's
 * audit activity for last-login enrichment, and the activity each submission was parsed with.
 */

/** Created with the rest of the schema (`openDatabase`). */
export const SETTINGS_DDL = `
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS email_templates (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  usage TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS idp_audit_activity (
  seq INTEGER PRIMARY KEY,
  idp_app_id TEXT NOT NULL,
  at TEXT NOT NULL,
  user TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idp_audit_activity_by_app ON idp_audit_activity (idp_app_id);

-- The single-sign-on activity a data source's submission was parsed with, replayed on re-parses.
CREATE TABLE IF NOT EXISTS sso_activity (
  data_source_id TEXT PRIMARY KEY REFERENCES data_sources(id) ON DELETE CASCADE,
  activity TEXT NOT NULL
);
`;
