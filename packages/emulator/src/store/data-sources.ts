/** Data sources in the database. */
import { randomUUID } from 'node:crypto';
import type { PushDb } from '../db/push-db.js';
import type { Db } from '../db/schema.js';
import { deleteGraphOf } from '../graph/delete-graph.js';

/**
 * Parse outcome of a data source's last push: `PENDING` before any push, `SUCCESS` once a push was
 * parsed, `FAILED` after a push whose payload could not be decoded or failed validation.
 */
export type DataSourceStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/** A data source as the emulator reports it. */
export interface DataSourceRecord {
  id: string;
  name: string;
  status: DataSourceStatus;
  provider_id: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, name, status, provider_id, created_at, updated_at';

/** Inserts a data source. The caller checks the name is free under the provider. */
export function insertDataSource(
  db: Db,
  providerId: string,
  name: string,
  createdAt: string,
): DataSourceRecord {
  const record: DataSourceRecord = {
    id: randomUUID(),
    name,
    status: 'PENDING',
    provider_id: providerId,
    created_at: createdAt,
    updated_at: createdAt,
  };
  db.prepare(
    'INSERT INTO data_sources (id, provider_id, name, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(record.id, providerId, name, record.status, createdAt, createdAt);
  return record;
}

/** Whether the provider already has a data source named `name`. */
export function dataSourceNameTaken(db: Db, providerId: string, name: string): boolean {
  return (
    db
      .prepare<[string, string], { one: number }>(
        'SELECT 1 AS one FROM data_sources WHERE provider_id = ? AND name = ?',
      )
      .get(providerId, name) !== undefined
  );
}

/** The data source `id` of provider `providerId`, or undefined. */
export function getDataSource(db: Db, providerId: string, id: string): DataSourceRecord | undefined {
  return db
    .prepare<[string, string], DataSourceRecord>(
      `SELECT ${COLUMNS} FROM data_sources WHERE provider_id = ? AND id = ?`,
    )
    .get(providerId, id);
}

/** Column list for list queries. */
export const DATA_SOURCE_COLUMNS = COLUMNS;

/** Sets the status after a push. */
export function setDataSourceStatus(db: PushDb, id: string, status: DataSourceStatus, at: string): void {
  db.prepare('UPDATE data_sources SET status = ?, updated_at = ? WHERE id = ?').run(status, at, id);
}

/** Deletes a data source with its graph, tags, submission and uploads. */
export function deleteDataSource(db: Db, id: string): void {
  db.transaction(() => {
    deleteGraphOf(db, id, { keepTags: false });
    db.prepare('DELETE FROM data_sources WHERE id = ?').run(id);
  })();
}

/** Ids and names of a provider's data sources. */
export function dataSourcesOf(db: Db, providerId: string): DataSourceRecord[] {
  return db
    .prepare<[string], DataSourceRecord>(
      `SELECT ${COLUMNS} FROM data_sources WHERE provider_id = ? ORDER BY seq`,
    )
    .all(providerId);
}
