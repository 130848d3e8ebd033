/**
 * A bulk ingest (a submission that is most of the graph, 16 MB of JSON or more) drops the graph's
 * indexes and leaves the node-query ones to the first query (`db/graph-indexes.ts`). Node queries
 * and access explanations answer the same after it, also after a rejected bulk push (rolled back,
 * the previous graph stays) and after a second bulk push that replaces the first.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../testing/until.js';
import { useEmulator, values, violations, type Harness } from '../private-test-helpers/harness.js';

const QUERY = '/api/v1/assessments/query_spec:nodes';
/** Users of a bulk payload: with their notes, about 18 MB of JSON. */
const USERS = 20_000;
const NOTE = 'n'.repeat(880);
/** Users per level: one page of a node query. */
const LEVELS = 400;

/** A bulk payload: users named `${prefix}${i}` at level i % LEVELS; those at level 7 hold role admin. */
function bulkPayload(prefix: string): Record<string, unknown> {
  const users = Array.from({ length: USERS }, (_, i) => ({
    name: `${prefix}${i}`,
    identities: [`${prefix}${i}@example.com`],
    groups: i % 2 === 0 ? ['devs'] : [],
    custom_properties: { level: i % LEVELS, note: NOTE },
  }));
  const grants = users
    .filter((_, i) => i % LEVELS === 7)
    .map((u) => ({
      identity: u.name,
      identity_type: 'local_user',
      role_assignments: [{ application: 'acme', role: 'admin', apply_to_application: true }],
    }));
  return {
    custom_property_definition: {
      applications: [
        { application_type: 'acme', local_user_properties: { level: 'NUMBER', note: 'STRING' } },
      ],
    },
    applications: [
      {
        name: 'acme',
        application_type: 'acme',
        local_users: users,
        local_groups: [{ name: 'devs' }],
        local_roles: [{ name: 'admin', permissions: ['read'] }],
      },
    ],
    permissions: [{ name: 'read', permission_type: ['DataRead'] }],
    identity_to_permissions: grants,
  };
}

interface Row {
  name: string;
  count: number;
  permissions: string[];
}

/**
 * Users at `level` (with access to the application when `withAccess`), sorted by name. Pages are
 * followed until the last: a page may end early (`has_more`) when its time budget runs out, as it
 * can on a loaded machine.
 */
async function atLevel(h: Harness, level: number, withAccess = true): Promise<Row[]> {
  const body = {
    source_node_types: {
      nodes: [
        {
          node_type: 'OAA.acme.User',
          condition_expression: { specs: [{ fn: 'EQ', property: 'customprop_level', value: level }] },
        },
      ],
    },
    ...(withAccess ? { destination_node_types: { nodes: [{ node_type: 'OAA.acme.Application' }] } } : {}),
  };
  type Value = { properties: { name: string }; destination_node_count: number; permissions: string[] };
  const found: Value[] = [];
  let token = '';
  for (;;) {
    const page = token ? `&page_token=${encodeURIComponent(token)}` : '';
    const r = await h.call('POST', `${QUERY}?page_size=100${page}`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    found.push(...values<Value>(r));
    if (!r.body.has_more) break;
    token = r.body.next_page_token as string;
  }
  return found
    .map((v) => ({ name: v.properties.name, count: v.destination_node_count, permissions: v.permissions }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** What `atLevel` answers for a graph pushed with `bulkPayload(prefix)`. */
function expected(prefix: string, level: number, granted: boolean): Row[] {
  return Array.from({ length: USERS / LEVELS }, (_, k) => ({
    name: `${prefix}${k * LEVELS + level}`,
    count: granted ? 1 : 0,
    permissions: granted ? ['DataRead'] : [],
  })).sort((a, b) => a.name.localeCompare(b.name));
}

/** Runs `check` against an emulator on `:memory:` (the graph written on the main thread) and on a file (on a worker). */
function inBothDatabases(check: (h: () => Harness) => void): void {
  describe('in memory', () => check(useEmulator()));
  describe('in a database file (written by a worker thread)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oaa-bulk-ingest-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    check(useEmulator({ dbPath: join(dir, 'emulator.db') }));
  });
}

describe('bulk ingest with node-query indexes built on first query', () => {
  inBothDatabases((h) => {
    it('answers node queries after bulk pushes, a rejected one (previous graph kept) and a replacing one', async () => {
      const t = await h().target('application');
      expect((await h().push(t.base, bulkPayload('a'), { gzip: true })).status).toBe(200);
      expect(await atLevel(h(), 7)).toEqual(expected('a', 7, true));
      expect(await atLevel(h(), 8)).toEqual([]);
      expect(await atLevel(h(), 8, false)).toEqual(expected('a', 8, false));

      // Bulk too, and rejected by its last user, after the others were written.
      const bad = bulkPayload('b');
      const app = (bad.applications as { local_users: Record<string, unknown>[] }[])[0]!;
      app.local_users.push({ name: 'b0', identities: ['again@example.com'] });
      const refused = await h().push(t.base, bad, { gzip: true });
      expect(refused.status).toBe(400);
      expect(violations(refused.body).map((v) => v.field)).toEqual([
        `applications[0].local_users[${USERS}].name`,
      ]);
      expect(await atLevel(h(), 7)).toEqual(expected('a', 7, true));
      const explained = await h().call('POST', '/_emulator/access', { identity: 'a407' });
      expect(explained.status, JSON.stringify(explained.body)).toBe(200);
      expect(JSON.stringify(explained.body)).toContain('DataRead');

      expect((await h().push(t.base, bulkPayload('c'), { gzip: true })).status).toBe(200);
      expect(await atLevel(h(), 7)).toEqual(expected('c', 7, true));
      expect(await atLevel(h(), 9, false)).toEqual(expected('c', 9, false));
    }, 300_000);
  });
});

describe('bulk ingest into a database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oaa-bulk-ingest-'));
  const dbPath = join(dir, 'emulator.db');
  const h = useEmulator({ dbPath });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the graph into the database file after the push (off the event loop), and answers queries', async () => {
    const t = await h().target('application');
    const before = statSync(dbPath).size;
    expect((await h().push(t.base, bulkPayload('f'), { gzip: true })).status).toBe(200);
    expect(await atLevel(h(), 7)).toEqual(expected('f', 7, true));
    // The pages reach the database file from the WAL (checkpointed by a worker thread).
    await until(
      'the bulk commit to be checkpointed',
      () => statSync(dbPath).size > before + 10 * 1024 * 1024,
    );
  }, 300_000);
});
