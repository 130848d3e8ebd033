/**
 * Tables of the events API and event subscriptions, created beside the main schema (`schema.ts`).
 * New tables only (`IF NOT EXISTS`), so a database file of the same schema version gains them on open.
 */
export const EVENTS_DDL = `
CREATE INDEX IF NOT EXISTS events_by_timestamp ON events (timestamp);

CREATE TABLE IF NOT EXISTS push_digests (
  data_source_id TEXT PRIMARY KEY REFERENCES data_sources(id) ON DELETE CASCADE,
  digest TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS subscriptions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL,
  last_evaluated_ms INTEGER NOT NULL,
  last_event_seq INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS allowlist (
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (kind, value)
);
`;
