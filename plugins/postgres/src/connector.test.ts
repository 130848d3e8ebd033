import {
  isOaaError,
  validate,
  type Application,
  type ApplicationPayload,
  type LocalUser,
  type Resource,
  type RoleAssignment,
} from '@oaakit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgresConnector from './index.js';
import { testContext } from './private-test-helpers/context.js';
import { loadFixtures, READER_ROLE, type LoadedFixtures } from './private-test-helpers/fixtures.js';
import { createTemplate, startPgServer, type PgServer, type PgTemplate } from './testing/index.js';

let template: PgTemplate;
let server: PgServer;
let fixtures: LoadedFixtures;
let payload: ApplicationPayload;
let app: Application;

function config(extra: Record<string, unknown> = {}) {
  return {
    host: server.host,
    port: server.port,
    user: READER_ROLE,
    databases: ['hr', 'billing'],
    ssl: 'disable' as const,
    ...extra,
  };
}

beforeAll(async () => {
  template = await createTemplate();
  server = await startPgServer(template);
  fixtures = await loadFixtures(server);
  const t = testContext(config(), fixtures.passwords[READER_ROLE]!);
  payload = (await postgresConnector.extract(t.ctx)) as ApplicationPayload;
  app = payload.applications[0]!;
});
afterAll(async () => {
  await server?.stop();
  await template?.remove();
});

const user = (name: string): LocalUser => app.local_users!.find((u) => u.name === name)!;
const group = (name: string) => app.local_groups!.find((g) => g.name === name)!;

/** The resource at `path` of names, e.g. ['hr', 'hr', 'employees']. */
function resource(...path: string[]): Resource {
  let list = app.resources ?? [];
  let found: Resource | undefined;
  for (const name of path) {
    found = list.find((r) => r.name === name);
    if (found === undefined) throw new Error(`no resource ${path.join(' > ')}`);
    list = found.sub_resources ?? [];
  }
  return found!;
}

/** Dot-path reference of a resource, as grants name it. */
function ref(...path: string[]): string {
  const ids: string[] = [];
  let list = app.resources ?? [];
  for (const name of path) {
    const r = list.find((x) => x.name === name)!;
    ids.push(r.id ?? r.name);
    list = r.sub_resources ?? [];
  }
  return ids.join('.');
}

/** The roles `identity` holds on the resource at `path`, with the grant option marked. */
function rolesOn(identity: string, type: 'local_user' | 'local_group', ...path: string[]): string[] {
  const entry = payload.identity_to_permissions!.find(
    (e) => e.identity === identity && e.identity_type === type,
  );
  const target = ref(...path);
  return (entry?.role_assignments ?? [])
    .filter((a: RoleAssignment) => a.resources?.includes(target))
    .map((a) => (a.custom_properties?.grant_option === true ? `${a.role}*` : a.role))
    .sort();
}

describe('postgres connector against a real cluster', () => {
  it('produces a payload without validation errors', () => {
    const { errors } = validate('application', payload);
    expect(errors).toEqual([]);
    expect(app).toMatchObject({
      name: `PostgreSQL 127.0.0.1:${server.port}`,
      application_type: 'PostgreSQL',
    });
  });

  it('makes LOGIN roles users, with their attributes, activity and PUBLIC', () => {
    const names = app.local_users!.map((u) => u.name).sort();
    expect(names).toEqual(
      [
        'alice',
        'bob',
        'dave',
        'erin',
        'etl',
        'frank',
        'grace',
        'henry',
        'ivan',
        'oaa_reader',
        // The bootstrap superuser of the test server.
        'postgres',
        'root_admin',
      ].sort(),
    );
    expect(user('alice')).toMatchObject({
      is_active: true,
      groups: ['PUBLIC', 'hr_admins'],
      custom_properties: { createrole: true, superuser: false, comment: 'head of HR', inherit: true },
    });
    // erin's VALID UNTIL has passed: she cannot log in.
    expect(user('erin')).toMatchObject({
      is_active: false,
      custom_properties: { valid_until: '2020-01-01T00:00:00Z' },
    });
    expect(user('ivan').custom_properties).toMatchObject({ bypassrls: true });
    expect(user('root_admin').custom_properties).toMatchObject({ superuser: true });
    expect(user('etl').custom_properties).toMatchObject({ connection_limit: 4 });
    expect(user('bob').custom_properties).toMatchObject({ admin_of_groups: ['hr_readers'] });
  });

  it('makes roles with members (or without LOGIN) groups, nested, and marks NOINHERIT memberships', () => {
    expect(group('hr_admins').groups).toEqual(['hr_writers']);
    expect(group('hr_writers').groups).toEqual(['hr_readers']);
    expect(group('hr_readers').groups).toEqual(['staff']);
    expect(group('analysts').groups).toEqual(['pg_read_all_data']);
    // dave does not inherit billing_writers: no edge, but the membership is recorded.
    expect(user('dave').groups).toEqual(['PUBLIC']);
    expect(user('dave').custom_properties).toMatchObject({
      inherit: false,
      noinherit_groups: ['billing_writers'],
    });
    // grace logs in and has a member: a user and a group, with distinct ids; she is in her own group.
    const graceUser = user('grace');
    const graceGroup = group('grace');
    expect(graceUser.unique_id).not.toEqual(graceGroup.unique_id);
    expect(graceUser.groups).toEqual(expect.arrayContaining(['billing_readers', 'grace']));
    expect(user('henry').groups).toEqual(['PUBLIC', 'grace']);
    // Predefined roles nobody is a member of stay out of the graph.
    expect(app.local_groups!.map((g) => g.name)).not.toContain('pg_monitor');
  });

  it('reads databases, schemas, relations of each kind, functions by signature and granted columns', () => {
    expect(app.resources!.map((r) => [r.name, r.resource_type])).toEqual([
      ['hr', 'database'],
      ['billing', 'database'],
    ]);
    const hr = resource('hr', 'hr');
    expect(hr.resource_type).toBe('schema');
    expect(hr.sub_resources!.map((r) => `${r.resource_type} ${r.name}`).sort()).toEqual(
      [
        'table departments',
        'table employees',
        'sequence employees_id_seq',
        'table salary_history',
        'view directory',
        'materialized_view headcount',
        'function give_raise(employee integer, percent numeric)',
      ].sort(),
    );
    expect(resource('billing', 'billing', 'fx_rates').resource_type).toBe('foreign_table');
    // Columns only where a column grant exists.
    expect(resource('hr', 'hr', 'employees').sub_resources!.map((c) => c.name)).toEqual([
      'id',
      'name',
      'department_id',
      'salary',
    ]);
    expect(resource('hr', 'hr', 'departments').sub_resources).toBeUndefined();
    // Ids carry the oid and the qualified name.
    expect(resource('hr', 'hr', 'employees').id).toMatch(/^\d+:hr\/hr\/employees$/);
  });

  it('grants privileges through ACLs, PUBLIC, ownership and grant options', () => {
    expect(rolesOn('PUBLIC', 'local_group', 'hr', 'hr', 'departments')).toEqual(['SELECT']);
    expect(rolesOn('hr_admins', 'local_group', 'hr', 'hr', 'employees')).toEqual(['DELETE*', 'TRUNCATE*']);
    expect(rolesOn('hr_writers', 'local_group', 'hr', 'hr', 'employees')).toEqual(['INSERT', 'UPDATE']);
    expect(rolesOn('hr_owner', 'local_group', 'hr', 'hr', 'employees')).toContain('owner');
    expect(rolesOn('app_owner', 'local_group', 'billing', 'billing', 'invoices')).toContain('owner');
    // Column grants are on the columns, not the table.
    expect(rolesOn('staff', 'local_group', 'hr', 'hr', 'employees')).toEqual([]);
    expect(rolesOn('staff', 'local_group', 'hr', 'hr', 'employees', 'name')).toEqual(['SELECT']);
    // Sequence USAGE is a write (nextval).
    expect(rolesOn('hr_writers', 'local_group', 'hr', 'hr', 'employees_id_seq')).toEqual([
      'USAGE (sequence)',
    ]);
    // EXECUTE revoked from PUBLIC, granted to admins.
    const fn = ['hr', 'hr', 'give_raise(employee integer, percent numeric)'];
    expect(rolesOn('PUBLIC', 'local_group', ...fn)).toEqual([]);
    expect(rolesOn('hr_admins', 'local_group', ...fn)).toEqual(['EXECUTE']);
    // CONNECT revoked from PUBLIC on hr; the built-in default applies to postgres-less databases.
    expect(rolesOn('PUBLIC', 'local_group', 'hr')).toEqual([]);
    expect(rolesOn('oaa_reader', 'local_user', 'hr')).toEqual(['CONNECT']);
    // grace owns public.notes as a group (her member henry inherits it).
    expect(rolesOn('grace', 'local_group', 'billing', 'public', 'notes')).toContain('owner');
    // pg_read_all_data is expanded to SELECT on every relation and USAGE on every schema.
    expect(rolesOn('pg_read_all_data', 'local_group', 'billing', 'billing', 'payments')).toEqual(['SELECT']);
    expect(rolesOn('pg_write_all_data', 'local_group', 'billing', 'billing', 'payments')).toEqual([
      'DELETE',
      'INSERT',
      'UPDATE',
    ]);
    // The database owner is the owner of the public schema (through pg_database_owner).
    expect(rolesOn('app_owner', 'local_group', 'billing', 'public')).toContain('owner');
  });

  it('records default privileges on the database and the schema, and RLS on the table', () => {
    expect(resource('hr').custom_properties).toMatchObject({
      owner: 'hr_owner',
      default_privileges: [
        'new tables of hr_owner: SELECT to hr_readers; INSERT, SELECT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER to hr_owner (replaces the built-in default)',
        'new functions of hr_owner: EXECUTE to hr_owner (replaces the built-in default)',
      ],
    });
    expect(resource('hr', 'hr').custom_properties).toMatchObject({
      default_privileges: ['new tables of hr_owner: INSERT to hr_writers (adds to the global default)'],
    });
    expect(resource('hr', 'hr', 'employees').custom_properties).toEqual({
      owner: 'hr_owner',
      rls_enabled: true,
      rls_forced: true,
      rls_policies: [
        'admins_all: permissive ALL to hr_admins using (true) with check (true)',
        'own_row: permissive SELECT to staff using ((name = CURRENT_USER))',
      ],
    });
  });
});

describe('postgres connector without a database list', () => {
  it('reads every database that allows connections', async () => {
    const { databases: _listed, ...rest } = config();
    const t = testContext(rest, fixtures.passwords[READER_ROLE]!);
    const all = (await postgresConnector.extract(t.ctx)) as ApplicationPayload;
    // template0 does not allow connections.
    expect(all.applications[0]!.resources!.map((r) => r.name)).toEqual([
      'billing',
      'hr',
      'postgres',
      'template1',
    ]);
  });
});

describe('postgres connector check', () => {
  it('passes for the reader role', async () => {
    await postgresConnector.check!(testContext(config(), fixtures.passwords[READER_ROLE]!).ctx);
  });

  it('names a database without CONNECT, with the GRANT that fixes it', async () => {
    const admin = await server.connectAsSuperuser();
    await admin.query(`CREATE ROLE no_connect LOGIN PASSWORD 'pw-no-connect'`);
    await admin.end();
    const error: unknown = await postgresConnector.check!(
      testContext(config({ user: 'no_connect', databases: ['postgres', 'hr'] }), 'pw-no-connect').ctx,
    ).catch((e: unknown) => e);
    expect(isOaaError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'DATABASE_NOT_READABLE',
      message: expect.stringContaining('GRANT CONNECT ON DATABASE "hr" TO "no_connect";'),
    });
    expect((error as Error).message).not.toContain('"postgres"');
    // The same when the database it is refused is the first one it connects to.
    const first: unknown = await postgresConnector.check!(
      testContext(config({ user: 'no_connect', databases: ['billing'] }), 'pw-no-connect').ctx,
    ).catch((e: unknown) => e);
    expect(first).toMatchObject({
      code: 'DATABASE_NOT_READABLE',
      message: expect.stringContaining('GRANT CONNECT ON DATABASE "billing" TO "no_connect";'),
    });
  });

  it('throws SOURCE_CREDENTIALS_REFUSED on a wrong password, without the password', async () => {
    const error: unknown = await postgresConnector.check!(
      testContext(config(), 'wrong-password-1234').ctx,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SOURCE_CREDENTIALS_REFUSED' });
    expect(JSON.stringify(error) + String(error)).not.toContain('wrong-password-1234');
  });
});
