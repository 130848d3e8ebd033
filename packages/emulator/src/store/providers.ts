/** Custom providers in the database. The whole record is kept as JSON beside the columns lists use. */
import { randomUUID } from 'node:crypto';
import type { ProviderCreate, Template } from '@oaakit/core';
import type { PushDb } from '../db/push-db.js';
import type { Db } from '../db/schema.js';

/** The empty schema definition, base64: what a new provider reports. */
export const EMPTY_SCHEMA_DEFINITION = Buffer.from('{}').toString('base64');

/** A custom provider with every field of the spec's table. */
export interface ProviderRecord {
  id: string;
  external_id: string | null;
  name: string;
  custom_template: Template;
  custom_templates: string[];
  application_types: string[];
  idp_types: string[];
  file_system_types: string[];
  hris_types: string[];
  principal_types: string[];
  resource_types: string[];
  schema_definition_json: string;
  provisioning: boolean | null;
  internal_app_name: string | null;
  configuration_json: string | null;
  data_plane_id: string | null;
  team_id: string | null;
  state: string;
  external_lifecycle_management_type: string | null;
  push_type: number | null;
}

/** The types a push reports, merged into the provider's lists. */
export interface ProviderTypes {
  application_types?: string[];
  idp_types?: string[];
  hris_types?: string[];
  resource_types?: string[];
}

/** Inserts a provider built from a create body. The caller checks the name is free. */
export function insertProvider(db: Db, body: ProviderCreate, createdAt: string): ProviderRecord {
  const record: ProviderRecord = {
    id: randomUUID(),
    external_id: body.external_id ?? null,
    name: body.name,
    custom_template: body.custom_template,
    custom_templates: [body.custom_template],
    application_types: [],
    idp_types: [],
    file_system_types: [],
    hris_types: [],
    principal_types: [],
    resource_types: [],
    schema_definition_json: EMPTY_SCHEMA_DEFINITION,
    provisioning: body.provisioning ?? null,
    internal_app_name: body.internal_app_name ?? null,
    configuration_json: body.configuration_json ?? null,
    data_plane_id: body.data_plane_id ?? null,
    team_id: body.team_id ?? null,
    state: 'ENABLED',
    external_lifecycle_management_type: body.external_lifecycle_management_type ?? null,
    push_type: body.push_type ?? null,
  };
  db.prepare('INSERT INTO providers (id, name, state, created_at, record) VALUES (?, ?, ?, ?, ?)').run(
    record.id,
    record.name,
    record.state,
    createdAt,
    JSON.stringify(record),
  );
  return record;
}

/** Whether a provider named `name` exists. */
export function providerNameTaken(db: Db, name: string): boolean {
  return (
    db.prepare<[string], { one: number }>('SELECT 1 AS one FROM providers WHERE name = ?').get(name) !==
    undefined
  );
}

/** The provider `id`, or undefined. */
export function getProvider(db: PushDb, id: string): ProviderRecord | undefined {
  const row = db.prepare<{ record: string }>('SELECT record FROM providers WHERE id = ?').get(id);
  return row === undefined ? undefined : (JSON.parse(row.record) as ProviderRecord);
}

/** Parses stored provider rows. */
export function providerFromRow(row: { record: string }): ProviderRecord {
  return JSON.parse(row.record) as ProviderRecord;
}

/** Adds the types a push reported to the provider's lists (types are never removed). */
export function mergeProviderTypes(db: PushDb, id: string, types: ProviderTypes): void {
  const record = getProvider(db, id);
  if (!record) return;
  let changed = false;
  for (const key of ['application_types', 'idp_types', 'hris_types', 'resource_types'] as const) {
    for (const t of types[key] ?? []) {
      if (!record[key].includes(t)) {
        record[key].push(t);
        changed = true;
      }
    }
  }
  if (changed) db.prepare('UPDATE providers SET record = ? WHERE id = ?').run(JSON.stringify(record), id);
}

/** Sets the provider's `provisioning` flag and returns the updated record. The caller checks it exists. */
export function setProvisioning(db: Db, record: ProviderRecord, provisioning: boolean): ProviderRecord {
  const updated: ProviderRecord = { ...record, provisioning };
  db.prepare('UPDATE providers SET record = ? WHERE id = ?').run(JSON.stringify(updated), record.id);
  return updated;
}

/** Deletes the provider row; data sources, icons and uploads go with it (foreign keys). */
export function deleteProviderRow(db: Db, id: string): void {
  db.prepare('DELETE FROM providers WHERE id = ?').run(id);
}
