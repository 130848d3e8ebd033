/** PostgreSQL privileges as local roles of the payload, each holding one permission of the same name. */
import type { PermissionType } from '@oaakit/core';

/** USAGE on a sequence lets `nextval` change it: a write, unlike USAGE on a schema. */
export const SEQUENCE_USAGE = 'USAGE (sequence)';
/** The role of an object's owner: every privilege, plus ALTER, DROP and GRANT. */
export const OWNER_ROLE = 'owner';

/** Canonical permission types of each privilege (and of what ownership adds). */
export const PRIVILEGE_TYPES: Readonly<Record<string, PermissionType[]>> = {
  SELECT: ['DataRead'],
  INSERT: ['DataCreate'],
  UPDATE: ['DataWrite'],
  [SEQUENCE_USAGE]: ['DataWrite'],
  DELETE: ['DataDelete'],
  TRUNCATE: ['DataDelete'],
  USAGE: ['MetadataRead'],
  REFERENCES: ['MetadataRead'],
  CREATE: ['MetadataWrite'],
  TRIGGER: ['MetadataWrite'],
  MAINTAIN: ['MetadataWrite'],
  CONNECT: ['NonData'],
  TEMPORARY: ['NonData'],
  EXECUTE: ['NonData'],
  ALTER: ['MetadataWrite'],
  DROP: ['MetadataWrite', 'DataDelete'],
  GRANT: ['MetadataWrite'],
};

/** The privileges the owner role holds (ALTER, DROP and GRANT only owners have). */
export const OWNER_PRIVILEGES = Object.keys(PRIVILEGE_TYPES);

/** The role of a privilege read from an ACL of an object of `relkind` (or another object when undefined). */
export function privilegeRole(privilege: string, relkind?: string): string {
  return privilege === 'USAGE' && relkind === 'S' ? SEQUENCE_USAGE : privilege;
}

/** Resource types of relations, by `relkind`. */
export const RELATION_TYPES: Readonly<Record<string, string>> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
  S: 'sequence',
};

/** What predefined roles give without an ACL entry: privileges on every relation (and USAGE on every schema). */
export const PREDEFINED_GRANTS: Readonly<Record<string, string[]>> = {
  pg_read_all_data: ['SELECT'],
  pg_write_all_data: ['INSERT', 'UPDATE', 'DELETE'],
};
