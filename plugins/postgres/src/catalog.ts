/**
 * Reads the catalogs: cluster-wide (roles, memberships, databases) once, and per database (schemas,
 * relations, columns, functions, default privileges, RLS) inside one read-only REPEATABLE READ
 * transaction, so each database is read from one snapshot. The large catalogs are streamed through
 * a server-side cursor (`DECLARE ... CURSOR`, `FETCH`), never read into memory at once.
 */
import type pg from 'pg';

/** One entry of an exploded ACL: grantee oid (0 for PUBLIC), privilege, with grant option. */
export type AclEntry = [grantee: string, privilege: string, grantable: boolean];

/** A SQL expression: the exploded ACL `acl` (or the built-in default of `kind` for `owner` when NULL) as JSON. */
function aclJson(acl: string, kind: string | null, owner: string): string {
  const source = kind === null ? acl : `coalesce(${acl}, acldefault(${kind}, ${owner}))`;
  return `(SELECT coalesce(json_agg(json_build_array(a.grantee::int8::text, a.privilege_type, a.is_grantable)), '[]')
             FROM aclexplode(${source}) a)`;
}

/** Schemas that hold the system, not data: never read. */
const USER_SCHEMA = `n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'`;

export interface RoleRow {
  oid: string;
  rolname: string;
  rolsuper: boolean;
  rolinherit: boolean;
  rolcreaterole: boolean;
  rolcreatedb: boolean;
  rolcanlogin: boolean;
  rolreplication: boolean;
  rolbypassrls: boolean;
  rolconnlimit: number;
  /** RFC 3339, or null when unset or infinity. */
  valid_until: string | null;
  /** Whether `rolvaliduntil` is unset or in the future. */
  valid_now: boolean;
  comment: string | null;
}

export interface MembershipRow {
  roleid: string;
  member: string;
  admin_option: boolean;
  /** Whether the member has the role's privileges without SET ROLE. */
  inherit_option: boolean;
  set_option: boolean;
}

export interface DatabaseRow {
  oid: string;
  datname: string;
  owner: string;
  datallowconn: boolean;
  can_connect: boolean;
  comment: string | null;
  acl: AclEntry[];
}

export interface SchemaRow {
  oid: string;
  nspname: string;
  owner: string;
  acl: AclEntry[];
}

export interface PolicyRow {
  name: string;
  command: string;
  permissive: boolean;
  roles: string[];
  using: string | null;
  check: string | null;
}

export interface ColumnRow {
  attnum: number;
  name: string;
  acl: AclEntry[];
}

export interface RelationRow {
  oid: string;
  schema: string;
  relname: string;
  relkind: string;
  owner: string;
  rls_enabled: boolean;
  rls_forced: boolean;
  acl: AclEntry[];
  policies: PolicyRow[] | null;
  columns: ColumnRow[] | null;
}

export interface FunctionRow {
  oid: string;
  schema: string;
  signature: string;
  prokind: string;
  owner: string;
  acl: AclEntry[];
}

export interface DefaultAclRow {
  role: string;
  /** Schema oid, or null for a global entry. */
  schema: string | null;
  objtype: string;
  acl: AclEntry[];
}

export async function serverVersionNum(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ v: string }>(`SELECT current_setting('server_version_num') AS v`);
  return Number(rows[0]!.v);
}

export async function readRoles(client: pg.Client): Promise<RoleRow[]> {
  const { rows } = await client.query<RoleRow>(
    `SELECT r.oid::int8::text AS oid, r.rolname, r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb,
            r.rolcanlogin, r.rolreplication, r.rolbypassrls, r.rolconnlimit,
            CASE WHEN isfinite(r.rolvaliduntil)
                 THEN to_char(r.rolvaliduntil AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END AS valid_until,
            (r.rolvaliduntil IS NULL OR r.rolvaliduntil > now()) AS valid_now,
            shobj_description(r.oid, 'pg_authid') AS comment
       FROM pg_roles r ORDER BY r.oid`,
  );
  return rows;
}

/**
 * Memberships. From PostgreSQL 16 each grant has its own inherit and set options (one row per
 * grantor: any grantor's option counts); before, whether privileges pass is the member's INHERIT.
 */
export async function readMemberships(client: pg.Client, versionNum: number): Promise<MembershipRow[]> {
  const sql =
    versionNum >= 160_000
      ? `SELECT m.roleid::int8::text AS roleid, m.member::int8::text AS member, bool_or(m.admin_option) AS admin_option,
                bool_or(m.inherit_option) AS inherit_option, bool_or(m.set_option) AS set_option
           FROM pg_auth_members m GROUP BY m.roleid, m.member ORDER BY m.roleid, m.member`
      : `SELECT m.roleid::int8::text AS roleid, m.member::int8::text AS member, bool_or(m.admin_option) AS admin_option,
                bool_or(r.rolinherit) AS inherit_option, true AS set_option
           FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member
          GROUP BY m.roleid, m.member ORDER BY m.roleid, m.member`;
  return (await client.query<MembershipRow>(sql)).rows;
}

export async function readDatabases(client: pg.Client): Promise<DatabaseRow[]> {
  const { rows } = await client.query<DatabaseRow>(
    `SELECT d.oid::int8::text AS oid, d.datname, d.datdba::int8::text AS owner, d.datallowconn,
            has_database_privilege(d.oid, 'CONNECT') AS can_connect,
            shobj_description(d.oid, 'pg_database') AS comment,
            ${aclJson('d.datacl', `'d'`, 'd.datdba')} AS acl
       FROM pg_database d ORDER BY d.datname`,
  );
  return rows;
}

export async function readSchemas(client: pg.Client): Promise<SchemaRow[]> {
  const { rows } = await client.query<SchemaRow>(
    `SELECT n.oid::int8::text AS oid, n.nspname, n.nspowner::int8::text AS owner,
            ${aclJson('n.nspacl', `'n'`, 'n.nspowner')} AS acl
       FROM pg_namespace n WHERE ${USER_SCHEMA} ORDER BY n.nspname`,
  );
  return rows;
}

export async function readDefaultAcls(client: pg.Client): Promise<DefaultAclRow[]> {
  const { rows } = await client.query<DefaultAclRow>(
    `SELECT d.defaclrole::int8::text AS role,
            CASE WHEN d.defaclnamespace = 0 THEN NULL ELSE d.defaclnamespace::int8::text END AS schema,
            d.defaclobjtype AS objtype, ${aclJson('d.defaclacl', null, '')} AS acl
       FROM pg_default_acl d ORDER BY d.oid`,
  );
  return rows;
}

/** Relations that hold or show data: tables (plain, partitioned), views, materialized views, foreign tables, sequences. */
export const RELATIONS_SQL = `
  SELECT c.oid::int8::text AS oid, n.nspname AS schema, c.relname, c.relkind::text AS relkind,
         c.relowner::int8::text AS owner, c.relrowsecurity AS rls_enabled, c.relforcerowsecurity AS rls_forced,
         ${aclJson('c.relacl', `CASE WHEN c.relkind = 'S' THEN 's' ELSE 'r' END::"char"`, 'c.relowner')} AS acl,
         (SELECT json_agg(json_build_object(
                   'name', p.polname,
                   'command', CASE p.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE'
                                            WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
                   'permissive', p.polpermissive,
                   'roles', ARRAY(SELECT CASE WHEN x = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(x) END
                                    FROM unnest(p.polroles) x),
                   'using', pg_get_expr(p.polqual, p.polrelid),
                   'check', pg_get_expr(p.polwithcheck, p.polrelid)) ORDER BY p.polname)
            FROM pg_policy p WHERE p.polrelid = c.oid) AS policies,
         (SELECT json_agg(json_build_object('attnum', a.attnum, 'name', a.attname,
                                            'acl', ${aclJson('a.attacl', null, '')}) ORDER BY a.attnum)
            FROM pg_attribute a
           WHERE a.attrelid = c.oid AND a.attacl IS NOT NULL AND NOT a.attisdropped AND a.attnum > 0) AS columns
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND ${USER_SCHEMA}
   ORDER BY n.nspname, c.relname`;

/** Functions and procedures, by signature. */
export const FUNCTIONS_SQL = `
  SELECT p.oid::int8::text AS oid, n.nspname AS schema,
         p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS signature,
         p.prokind::text AS prokind, p.proowner::int8::text AS owner,
         ${aclJson('p.proacl', `'f'`, 'p.proowner')} AS acl
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE ${USER_SCHEMA}
   ORDER BY n.nspname, p.proname, p.oid`;

let cursorCount = 0;

/**
 * Rows of `sql` in batches of `batch`, through a server-side cursor. Must run inside a transaction
 * (cursors live in one); the cursor is closed when the iteration ends, early or not.
 */
export async function* streamRows<T extends pg.QueryResultRow>(
  client: pg.Client,
  sql: string,
  batch = 2000,
): AsyncGenerator<T[]> {
  const name = `oaakit_cursor_${++cursorCount}`;
  await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`);
  try {
    for (;;) {
      const { rows } = await client.query<T>(`FETCH FORWARD ${batch} FROM ${name}`);
      if (rows.length > 0) yield rows;
      if (rows.length < batch) return;
    }
  } finally {
    await client.query(`CLOSE ${name}`);
  }
}
