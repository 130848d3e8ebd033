/**
 * The emulator's SQLite schema. One database holds the control plane (keys, providers, data sources,
 * uploads, events, icons) and the graph store (nodes, edges, identity keys, tags).
 *
 * Graph rows of one submission are written with consecutive row ids, so replacing a data source's
 * submission deletes a row-id range (recorded in `submissions`) and needs no per-data-source index.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, immediateTransactions, retryBusy } from './busy.js';
import { SETTINGS_DDL } from './settings-schema.js';
import { EVENTS_DDL } from './events-schema.js';
import { Database } from './sqlite.js';

/**
 * Bumped whenever a table changes shape; a file written by another version is refused, but for the
 * versions in `UPGRADED_FROM`. Version 2 keeps a pushed payload's stored copy in pieces
 * (`submission_parts`), which an emulator of version 1 would not read.
 */
export const SCHEMA_VERSION = 2;

/**
 * Earlier versions a file is upgraded from when it is opened: their changes to this version only
 * added tables and indexes, which the DDL creates (`IF NOT EXISTS`); their rows are read as they are.
 */
const UPGRADED_FROM = new Set(['1']);

/** The unique index of node ids (tags, lookups by id): kept up to date by every ingest. */
export const NODE_ID_INDEX: readonly [name: string, definition: string] = [
  'nodes_by_id',
  'UNIQUE INDEX IF NOT EXISTS nodes_by_id ON nodes (id)',
];

/**
 * The indexes of node queries (`access/`): nodes by type and edges by each endpoint, grant scope and
 * reference, and identity keys by node. A bulk ingest drops them and leaves them to be built by the
 * first graph query that needs them (`graph-indexes.ts`); opening the database builds missing ones.
 */
export const QUERY_INDEXES: readonly [name: string, definition: string][] = [
  ['nodes_by_type', 'INDEX IF NOT EXISTS nodes_by_type ON nodes (type)'],
  ['edges_by_src', 'INDEX IF NOT EXISTS edges_by_src ON edges (src, kind)'],
  // Identity references (HAS_IDENTITY, about a quarter of a big graph's edges) have no destination.
  ['edges_by_dst', 'INDEX IF NOT EXISTS edges_by_dst ON edges (dst, kind) WHERE dst IS NOT NULL'],
  ['edges_by_scope', 'INDEX IF NOT EXISTS edges_by_scope ON edges (scope) WHERE scope IS NOT NULL'],
  ['edges_by_ref', 'INDEX IF NOT EXISTS edges_by_ref ON edges (ref) WHERE ref IS NOT NULL'],
  ['identity_keys_by_node', 'INDEX IF NOT EXISTS identity_keys_by_node ON identity_keys (node)'],
];
const CREATE_GRAPH_INDEXES_SQL = [NODE_ID_INDEX, ...QUERY_INDEXES].map(([, d]) => `CREATE ${d};`).join('\n');

const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE IF NOT EXISTS providers (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL,
  created_at TEXT NOT NULL,
  record TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS data_sources (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  provider_id TEXT NOT NULL REFERENCES providers(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (provider_id, name)
);

CREATE TABLE IF NOT EXISTS submissions (
  data_source_id TEXT PRIMARY KEY REFERENCES data_sources(id) ON DELETE CASCADE,
  template TEXT NOT NULL,
  payload_gzip BLOB NOT NULL,
  pushed_at TEXT NOT NULL,
  node_lo INTEGER NOT NULL, node_hi INTEGER NOT NULL,
  edge_lo INTEGER NOT NULL, edge_hi INTEGER NOT NULL,
  key_lo INTEGER NOT NULL, key_hi INTEGER NOT NULL
);

-- A submission's stored payload (gzip) in the pieces it came in (a multipart upload's chunks), so no
-- step holds all of it; submissions.payload_gzip is then empty (files written before hold it there).
CREATE TABLE IF NOT EXISTS submission_parts (
  data_source_id TEXT NOT NULL REFERENCES data_sources(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (data_source_id, seq)
);

CREATE TABLE IF NOT EXISTS nodes (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  data_source_id TEXT NOT NULL,
  type TEXT NOT NULL,
  name TEXT,
  parent INTEGER,
  properties TEXT NOT NULL
);

-- src/dst are node row ids; an endpoint outside this graph (an identity-provider identity named by
-- a local user, a cloud role, a connection) is NULL with the reference text in ref.
CREATE TABLE IF NOT EXISTS edges (
  rid INTEGER PRIMARY KEY,
  src INTEGER,
  dst INTEGER,
  kind TEXT NOT NULL,
  scope INTEGER,
  ref TEXT,
  props TEXT
);

-- Lower-cased names, emails and identities of identity-provider users and groups, for identity links.
CREATE TABLE IF NOT EXISTS identity_keys (
  rid INTEGER PRIMARY KEY,
  node INTEGER NOT NULL,
  key TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS identity_keys_by_key ON identity_keys (key);
${CREATE_GRAPH_INDEXES_SQL}

-- Keyed by the stable node id, so a new push of the same entity keeps them.
CREATE TABLE IF NOT EXISTS node_tags (
  node_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (node_id, key, value)
) WITHOUT ROWID;

CREATE VIEW IF NOT EXISTS identity_links AS
  SELECT e.src AS local_node, k.node AS idp_node, e.ref AS identity
  FROM edges e JOIN identity_keys k ON k.key = e.ref
  WHERE e.kind = 'HAS_IDENTITY' AND e.src IS NOT NULL;

CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  timestamp TEXT NOT NULL,
  persisted_at TEXT NOT NULL,
  category TEXT NOT NULL,
  severity TEXT NOT NULL,
  name TEXT NOT NULL,
  message TEXT NOT NULL,
  provider_id TEXT,
  entity TEXT,
  entity_id TEXT,
  entity_name TEXT,
  event_type TEXT NOT NULL,
  error TEXT
);

CREATE TABLE IF NOT EXISTS icons (
  provider_id TEXT PRIMARY KEY REFERENCES providers(id) ON DELETE CASCADE,
  mime_type TEXT NOT NULL,
  data BLOB NOT NULL
);

CREATE TABLE IF NOT EXISTS upload_sessions (
  id TEXT PRIMARY KEY,
  data_source_id TEXT NOT NULL REFERENCES data_sources(id) ON DELETE CASCADE,
  last_activity_ms INTEGER NOT NULL,
  result TEXT
);

CREATE TABLE IF NOT EXISTS upload_chunks (
  upload_id TEXT NOT NULL REFERENCES upload_sessions(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (upload_id, seq)
);

-- Who started each multipart upload (principal's caller: an API key, an OAuth2 app for a user, a
-- console user), to cap the uploads one caller holds open. A table of its own, so a file written
-- before it gains it on open; an upload started by an emulator that did not know it has no row.
CREATE TABLE IF NOT EXISTS upload_callers (
  upload_id TEXT PRIMARY KEY REFERENCES upload_sessions(id) ON DELETE CASCADE,
  caller TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS upload_callers_by_caller ON upload_callers (caller);

CREATE TABLE IF NOT EXISTS configurations (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- Console users (console/auth/users.ts) and their sign-in sessions; a session id and a password are
-- stored only as hashes (SHA-256 of the random id, scrypt of the password).
CREATE TABLE IF NOT EXISTS users (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL UNIQUE,
  given_name TEXT NOT NULL,
  family_name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS sessions (
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL
);

-- OAuth2 apps (oauth/apps.ts), their secrets, authorization codes and tokens; secrets, codes and
-- tokens are stored as SHA-256 hashes. A token family is every token issued from one code.
CREATE TABLE IF NOT EXISTS oauth_apps (
  seq INTEGER PRIMARY KEY,
  client_id TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE IF NOT EXISTS oauth_secrets (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_apps(client_id) ON DELETE CASCADE,
  secret_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT
);

CREATE TABLE IF NOT EXISTS oauth_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_apps(client_id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  scope TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL,
  used_at_ms INTEGER
);

CREATE TABLE IF NOT EXISTS oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  client_id TEXT NOT NULL REFERENCES oauth_apps(client_id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family TEXT NOT NULL,
  scope TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL,
  revoked_at_ms INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_tokens_by_family ON oauth_tokens (family);
CREATE INDEX IF NOT EXISTS oauth_tokens_by_client ON oauth_tokens (client_id);
`;

/** The database handle type used throughout the emulator. */
export type Db = BetterSqlite3.Database;

/**
 * Opens (creating if needed) the emulator database at `path` (`:memory:` for a throwaway one). Other
 * processes may use the same file at the same time (see `busy.ts`); two that open a new file at
 * once create its tables once.
 */
export function openDatabase(path: string): Db {
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    immediateTransactions(db);
    db.pragma('foreign_keys = ON');
    const inMemory = path === ':memory:' || path === '';
    // A small page cache makes SQLite recycle pages constantly during a big ingest; in memory the
    // pages are held anyway, on disk the cache is capped at 128 MB.
    db.pragma(`cache_size = ${inMemory ? -2_000_000 : -131_072}`);
    if (!inMemory) {
      retryBusy(() => db.pragma('journal_mode = WAL'));
      db.pragma('synchronous = NORMAL');
    }
    db.transaction(() => {
      db.exec(DDL);
      db.exec(SETTINGS_DDL);
      db.exec(EVENTS_DDL);
      const row = db
        .prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")
        .get();
      if (row === undefined) {
        db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
      } else if (UPGRADED_FROM.has(row.value)) {
        db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION));
      } else if (row.value !== String(SCHEMA_VERSION)) {
        throw new Error(
          `database ${path} has schema version ${row.value}; this emulator reads version ${SCHEMA_VERSION} (and upgrades ${[...UPGRADED_FROM].join(', ')}): open it with the emulator that wrote it, or start with a new file`,
        );
      }
    })();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
