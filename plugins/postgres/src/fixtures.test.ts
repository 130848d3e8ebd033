import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures, READER_ROLE, type LoadedFixtures } from './private-test-helpers/fixtures.js';
import { createTemplate, startPgServer, type PgServer, type PgTemplate } from './testing/index.js';

let template: PgTemplate;
let server: PgServer;
let fixtures: LoadedFixtures;

beforeAll(async () => {
  template = await createTemplate();
  server = await startPgServer(template);
  fixtures = await loadFixtures(server);
});
afterAll(async () => {
  await server?.stop();
  await template?.remove();
});

async function asRole<T extends pg.QueryResultRow>(
  role: string,
  database: string,
  sql: string,
): Promise<T[]> {
  const client = new pg.Client({
    host: server.host,
    port: server.port,
    user: role,
    password: fixtures.passwords[role]!,
    database,
  });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function relation(qualified: string): string {
  return `(SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname || '.' || c.relname = '${qualified}')`;
}

async function can(database: string, role: string, table: string, privilege: string): Promise<boolean> {
  const rows = await asRole<{ ok: boolean }>(
    READER_ROLE,
    database,
    // By oid: resolving a qualified name needs USAGE on its schema, which the reader does not have.
    `SELECT has_table_privilege('${role}', ${relation(table)}, '${privilege}') AS ok`,
  );
  return rows[0]!.ok;
}

describe('the fixture cluster (HR and billing databases)', () => {
  it('lets the connector role connect to each database and nothing more', async () => {
    for (const db of fixtures.databases) {
      const rows = await asRole<{ me: string; superuser: string }>(
        READER_ROLE,
        db,
        `SELECT current_user AS me, current_setting('is_superuser') AS superuser`,
      );
      expect(rows).toEqual([{ me: READER_ROLE, superuser: 'off' }]);
    }
    // The only relation it may read is the one granted to PUBLIC.
    const reach = await asRole<{ relname: string }>(
      READER_ROLE,
      'hr',
      `SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'hr' AND c.relkind IN ('r', 'v', 'm')
          AND has_table_privilege(c.oid, 'SELECT')`,
    );
    expect(reach).toEqual([{ relname: 'departments' }]);
  });

  it('refuses CONNECT to roles that were not granted it (PUBLIC revoked, NOINHERIT)', async () => {
    // dave's only group is billing_writers (through staff, CONNECT on hr), but he does not inherit.
    await expect(asRole('dave', 'hr', 'SELECT 1')).rejects.toThrow(/permission denied for database "hr"/);
  });

  it('passes privileges through nested groups, PUBLIC, ownership and predefined roles', async () => {
    // alice is in hr_admins, in hr_writers, in hr_readers: SELECT came by the global default privilege.
    expect(await can('hr', 'alice', 'hr.employees', 'SELECT')).toBe(true);
    expect(await can('hr', 'alice', 'hr.employees', 'DELETE')).toBe(true);
    // Column grants alone do not give the table.
    expect(await can('hr', 'henry', 'hr.employees', 'SELECT')).toBe(false);
    // PUBLIC reads departments.
    expect(await can('hr', 'henry', 'hr.departments', 'SELECT')).toBe(true);
    // frank via analysts via pg_read_all_data; etl via pg_write_all_data.
    expect(await can('hr', 'frank', 'hr.salary_history', 'SELECT')).toBe(true);
    expect(await can('billing', 'etl', 'billing.payments', 'DELETE')).toBe(true);
    expect(await can('billing', 'etl', 'billing.payments', 'SELECT')).toBe(false);
    // henry is a member of grace, who owns public.notes.
    expect(await can('billing', 'henry', 'public.notes', 'UPDATE')).toBe(true);
  });

  it('has a NOINHERIT member, an expired login, a bypassrls role and a superuser', async () => {
    expect(await can('billing', 'dave', 'billing.invoices', 'INSERT')).toBe(false);
    const roles = await asRole<{ rolname: string }>(
      READER_ROLE,
      'postgres',
      `SELECT rolname FROM pg_roles
        WHERE (NOT rolinherit) OR rolvaliduntil < now() OR rolbypassrls OR rolsuper
        ORDER BY rolname`,
    );
    expect(roles.map((r) => r.rolname)).toEqual(['dave', 'erin', 'ivan', 'postgres', 'root_admin']);
  });

  it('has column grants, default privileges, RLS policies and functions kept from PUBLIC', async () => {
    const [hr] = await asRole<{ columns: string; defaults: string; policies: string; rls: boolean }>(
      READER_ROLE,
      'hr',
      `SELECT (SELECT count(*) FROM pg_attribute WHERE attacl IS NOT NULL
                 AND attrelid = ${relation('hr.employees')}) AS columns,
              (SELECT count(*) FROM pg_default_acl) AS defaults,
              (SELECT count(*) FROM pg_policy) AS policies,
              (SELECT relrowsecurity AND relforcerowsecurity FROM pg_class
                WHERE oid = ${relation('hr.employees')}) AS rls`,
    );
    expect(hr).toEqual({ columns: '4', defaults: '3', policies: '2', rls: true });
    for (const [db, fn] of [
      ['hr', 'give_raise'],
      ['billing', 'close_period'],
    ] as const) {
      const [row] = await asRole<{ ok: boolean }>(
        READER_ROLE,
        db,
        `SELECT has_function_privilege('henry', oid, 'EXECUTE') AS ok FROM pg_proc WHERE proname = '${fn}'`,
      );
      expect(row).toEqual({ ok: false });
    }
  });

  it('has objects owned by different roles', async () => {
    const owners = await asRole<{ owner: string }>(
      READER_ROLE,
      'billing',
      `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('billing', 'public') ORDER BY 1`,
    );
    expect(owners.map((o) => o.owner)).toEqual(['app_owner', 'grace']);
  });
});
