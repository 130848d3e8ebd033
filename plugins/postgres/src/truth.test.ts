/**
 * The check of truth: for every user and every table of the fixture cluster, what the pushed graph
 * says the user can do (the emulator's effective-access walk) equals what PostgreSQL itself answers
 * with has_table_privilege, for SELECT, INSERT, UPDATE and DELETE. This proves the connector's
 * mapping and the emulator's access walk together: through nested groups, NOINHERIT, PUBLIC,
 * ownership, a LOGIN role with members and the predefined roles. Superusers are left out: PostgreSQL
 * answers yes to everything for them, and the graph carries their superuser flag instead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@oaakit/client';
import { startTestEmulator, type TestEmulator } from '@oaakit/emulator/testing';
import { StateStore, runConnector } from '@oaakit/runner';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgresConnector from './index.js';
import { loadFixtures, READER_ROLE, type LoadedFixtures } from './private-test-helpers/fixtures.js';
import { createTemplate, startPgServer, type PgServer, type PgTemplate } from './testing/index.js';

/** The privileges checked, and the canonical permission type each maps to. */
const CHECKED = {
  SELECT: 'DataRead',
  INSERT: 'DataCreate',
  UPDATE: 'DataWrite',
  DELETE: 'DataDelete',
} as const;

let template: PgTemplate;
let server: PgServer;
let fixtures: LoadedFixtures;
let emulator: TestEmulator;
let dir: string;

beforeAll(async () => {
  template = await createTemplate();
  server = await startPgServer(template);
  fixtures = await loadFixtures(server);
  emulator = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'oaakit-pg-truth-'));
});
afterAll(async () => {
  await emulator?.close();
  await server?.stop();
  await template?.remove();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

interface Answer {
  user: string;
  database: string;
  table: string;
  privilege: keyof typeof CHECKED;
  allowed: boolean;
}

/** PostgreSQL's own answers, asked as the connector's reader role (by oid: it lacks schema USAGE). */
async function postgresAnswers(database: string): Promise<Answer[]> {
  const client = new pg.Client({
    host: server.host,
    port: server.port,
    user: READER_ROLE,
    password: fixtures.passwords[READER_ROLE]!,
    database,
  });
  await client.connect();
  try {
    const { rows } = await client.query<Answer>(
      `SELECT r.rolname AS user, current_database() AS database,
              n.nspname || '.' || c.relname AS table, p.privilege,
              has_table_privilege(r.oid, c.oid, p.privilege) AS allowed
         FROM pg_roles r
        CROSS JOIN pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE']) AS p(privilege)
        WHERE r.rolcanlogin AND NOT r.rolsuper
          AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
          AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
        ORDER BY 1, 4, 5`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

interface AccessView {
  type: string;
  destinations: { id: string; type: string; name: string; permissions: string[] }[];
}

/** Resource types of the relations checked, as the graph types their nodes. */
const RELATION_NODE = /^OAA\.PostgreSQL\.(table|view|materialized_view|foreign_table)\.SubResource$/;

/** What the graph says the local user `name` holds on each relation, by relation name. */
async function graphAnswers(name: string): Promise<Map<string, string[]>> {
  const res = await fetch(`${emulator.url}/_emulator/access`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ identity: name }),
  });
  expect(res.status).toBe(200);
  const { values } = (await res.json()) as { values: AccessView[] };
  // A LOGIN role with members is a group too: the user is the one of type User.
  const users = values.filter((v) => v.type === 'OAA.PostgreSQL.User');
  expect(users).toHaveLength(1);
  return new Map(
    users[0]!.destinations.filter((d) => RELATION_NODE.test(d.type)).map((d) => [d.name, d.permissions]),
  );
}

function run(dataSource: string, state: string) {
  return runConnector({
    connector: postgresConnector,
    config: {
      host: server.host,
      port: server.port,
      user: READER_ROLE,
      databases: fixtures.databases,
      ssl: 'disable',
    },
    secrets: { password: fixtures.passwords[READER_ROLE]! },
    provider: 'PostgreSQL',
    dataSource,
    client: createClient({ url: emulator.url, apiKey: emulator.apiKey }),
    state: new StateStore(join(dir, state)),
  });
}

describe('the pushed graph against has_table_privilege', () => {
  it('agrees for every user x table x SELECT/INSERT/UPDATE/DELETE of the fixture cluster', async () => {
    const result = await run('fixture cluster', 'state');
    expect(result.status).toBe('pushed');

    const answers = [...(await postgresAnswers('hr')), ...(await postgresAnswers('billing'))];
    const byUser = new Map<string, Map<string, string[]>>();
    const mismatches: string[] = [];
    for (const a of answers) {
      if (!byUser.has(a.user)) byUser.set(a.user, await graphAnswers(a.user));
      const held = byUser.get(a.user)!.get(a.table.split('.')[1]!) ?? [];
      const graph = held.includes(CHECKED[a.privilege]);
      if (graph !== a.allowed)
        mismatches.push(
          `${a.user} ${a.privilege} ${a.database}.${a.table}: postgres ${a.allowed}, graph ${graph}`,
        );
    }
    expect(mismatches).toEqual([]);
    // Every login role but the superusers (postgres, root_admin), every table, view, materialized
    // view and foreign table of both databases, four privileges each.
    const users = new Set(answers.map((a) => a.user));
    const tables = new Set(answers.map((a) => `${a.database}.${a.table}`));
    expect(users.size).toBe(10);
    expect(tables.size).toBe(10);
    // Graph nodes are matched by relation name, which the fixture keeps unique across databases.
    expect(new Set(answers.map((a) => a.table.split('.')[1])).size).toBe(10);
    expect(answers).toHaveLength(10 * 10 * 4);
    // Both answers occur: the comparison is not between two empty sets.
    const allowed = answers.filter((a) => a.allowed).length;
    console.log(
      `has_table_privilege equivalence: ${answers.length} checks (${allowed} allowed), 0 mismatches`,
    );
    expect(allowed).toBeGreaterThan(40);
    expect(answers.length - allowed).toBeGreaterThan(40);
  });
});

describe('re-running the connector', () => {
  it('pushes nothing when nothing changed, and pushes again after a GRANT', async () => {
    expect((await run('rerun', 'rerun-state')).status).toBe('pushed');
    expect(await run('rerun', 'rerun-state')).toMatchObject({ status: 'skipped', skipped: 'unchanged' });
    const admin = await server.connectAsSuperuser('billing');
    try {
      await admin.query('GRANT SELECT ON billing.payments TO frank');
    } finally {
      await admin.end();
    }
    expect((await run('rerun', 'rerun-state')).status).toBe('pushed');
  });
});
