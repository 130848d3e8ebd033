/**
 * The check of truth against the directory's own answers:
 * - for every user of the fixture directory, the groups the pushed graph says it is in (the
 *   emulator's access walk, through nested groups) equal the groups slapd itself says it is in:
 *   the dynlist overlay's transitive dgMemberOf for groupOfNames and groupOfUniqueNames, and the
 *   posixGroups whose memberUid is the user's login;
 * - for every user, the active flag in the pushed graph equals what a bind with the user's own
 *   password does: it succeeds, or fails with invalidCredentials (49).
 * Then a re-run with nothing changed pushes nothing, and a change is pushed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@oaakit/client';
import { startTestEmulator, type TestEmulator } from '@oaakit/emulator/testing';
import { StateStore, runConnector, type RunResult } from '@oaakit/runner';
import { InvalidCredentialsError, type Entry } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ldapConnector from './index.js';
import { loadFixtureDirectory, type FixtureDirectory } from './private-test-helpers/fixture-directory.js';
import { startSlapd, type SlapdServer } from './private-test-helpers/slapd-server.js';

let server: SlapdServer;
let fixtures: FixtureDirectory;
let emulator: TestEmulator;
let dir: string;

beforeAll(async () => {
  server = await startSlapd();
  fixtures = await loadFixtureDirectory(server);
  emulator = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'oaakit-ldap-truth-'));
});
afterAll(async () => {
  await emulator?.close();
  await server?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

function run(dataSource: string, state: string) {
  return runConnector({
    connector: ldapConnector,
    config: { url: server.url, bindDn: fixtures.readerDn },
    secrets: { bindPassword: fixtures.readerPassword },
    provider: 'Corp directory',
    dataSource,
    client: createClient({ url: emulator.url, apiKey: emulator.apiKey }),
    state: new StateStore(join(dir, state)),
  });
}

/** Searches as the connector's bind account (which has the limits line), every page. */
async function searchAsReader(filter: string, attributes: string[]): Promise<Entry[]> {
  const client = server.client();
  try {
    await client.bind(fixtures.readerDn, fixtures.readerPassword);
    const { searchEntries } = await client.search('dc=corp,dc=example', {
      filter,
      attributes,
      paged: { pageSize: 500 },
    });
    return searchEntries;
  } finally {
    await client.unbind();
  }
}

function list(value: Entry[string] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

interface AccessView {
  type: string;
  memberships: { type: string; name: string }[];
}

async function access(identity: string): Promise<AccessView[]> {
  const res = await fetch(`${emulator.url}/_emulator/access`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ identity }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { values: AccessView[] }).values;
}

describe('the pushed graph against the directory', () => {
  let dataSourceId: string;
  let pushed: RunResult;
  beforeAll(async () => {
    const result = await run('corp.example', 'state');
    expect(result.status).toBe('pushed');
    if (result.status !== 'pushed') throw new Error('not pushed');
    dataSourceId = result.dataSource.id;
    pushed = result;
  });

  it("reports the cycles it broke, the referral it did not follow and the manager it left out in the run's result", () => {
    const messages = pushed.connectorWarnings.map((w) => w.message);
    expect(messages).toEqual([
      expect.stringMatching(/^group nesting has cycles: /),
      expect.stringMatching(/^managers that are not users of this read were left out/),
      expect.stringMatching(/^the directory referred parts of the search to other servers/),
    ]);
    expect(pushed.connectorWarnings[1]!.details).toMatchObject({
      unresolved: 1,
      examples: ['cn=Board of Directors,ou=roles,dc=corp,dc=example'],
    });
    expect(pushed.connectorWarnings[2]!.details).toEqual({
      referrals: ['ldap://partners.corp.example/ou=partners,dc=corp,dc=example??sub'],
    });
    expect(JSON.stringify(pushed)).not.toContain(fixtures.readerPassword);
  });

  it('puts every user in the groups slapd says it is in, nested ones included (dynlist dgMemberOf, memberUid)', async () => {
    const groups = await searchAsReader(
      '(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames)(objectClass=posixGroup))',
      ['cn', 'memberUid', 'member', 'uniqueMember'],
    );
    const cnOf = new Map(groups.map((g) => [g.dn, String(g.cn)]));
    const posix = new Map<string, string[]>();
    for (const g of groups)
      for (const uid of list(g.memberUid)) posix.set(uid, [...(posix.get(uid) ?? []), String(g.cn)]);
    const directMembers = groups.reduce((n, g) => n + list(g.member).length + list(g.uniqueMember).length, 0);

    const users = await searchAsReader('(&(objectClass=inetOrgPerson)(uid=*))', [
      'uid',
      'entryUUID',
      'dgMemberOf',
    ]);
    expect(users).toHaveLength(579);
    const mismatches: string[] = [];
    let memberships = 0;
    for (const u of users) {
      const uid = String(u.uid);
      const truth = new Set(list(u.dgMemberOf).map((dn) => cnOf.get(dn) ?? `unknown group ${dn}`));
      for (const g of posix.get(uid) ?? []) truth.add(g);
      const views = (await access(String(u.entryUUID))).filter((v) => v.type === 'OAA.openldap.IdPUser');
      expect(views).toHaveLength(1);
      const graph = new Set(
        views[0]!.memberships.filter((m) => m.type === 'OAA.openldap.IdPGroup').map((m) => m.name),
      );
      const want = [...truth].sort();
      const got = [...graph].sort();
      if (JSON.stringify(want) !== JSON.stringify(got))
        mismatches.push(`${uid}: slapd ${want.join(',')}; graph ${got.join(',')}`);
      memberships += truth.size;
    }
    expect(mismatches).toEqual([]);
    console.log(
      `dynlist equivalence: ${users.length} users, ${memberships} transitive group memberships, 0 mismatches`,
    );
    // Nesting is in the comparison: the users are in far more groups than the groups list directly.
    expect(memberships).toBeGreaterThan(directMembers + 500);
    // And the cycle: a member of one of its groups is in all three.
    const lbecker = users.find((u) => u.uid === 'lbecker')!;
    expect(list(lbecker.dgMemberOf).map((dn) => cnOf.get(dn))).toEqual(
      expect.arrayContaining(['on-call', 'incident-response', 'security-team', 'engineering', 'all-staff']),
    );
  });

  it("sets each user's active flag to what a bind with the user's own password does", async () => {
    const res = await fetch(
      `${emulator.url}/_emulator/graph/nodes?data_source_id=${dataSourceId}&type=OAA.openldap.IdPUser&limit=10000`,
      { headers: { authorization: `Bearer ${emulator.adminKey}` } },
    );
    const { values } = (await res.json()) as {
      values: { name: string; properties: Record<string, unknown> }[];
    };
    expect(values).toHaveLength(579);
    const active = new Map(values.map((v) => [v.name, v.properties.is_active]));
    const users = await searchAsReader('(uid=*)', ['uid']);
    const mismatches: string[] = [];
    let refused = 0;
    for (const u of users) {
      const password = fixtures.passwordOf(u.dn);
      if (password === undefined) throw new Error(`the fixtures set no password for ${u.dn}`);
      const client = server.client();
      let bound: boolean;
      try {
        await client.bind(u.dn, password);
        bound = true;
      } catch (error) {
        if (!(error instanceof InvalidCredentialsError)) throw error;
        bound = false;
        refused++;
      } finally {
        await client.unbind();
      }
      if (active.get(String(u.uid)) !== bound)
        mismatches.push(`${String(u.uid)}: bind ${bound}, is_active ${String(active.get(String(u.uid)))}`);
    }
    expect(mismatches).toEqual([]);
    console.log(`bind equivalence: ${users.length} users, ${refused} refused (49), 0 mismatches`);
    expect(refused).toBe(2);
  });
});

describe('re-running the connector', () => {
  it('pushes nothing when nothing changed, and pushes again after a membership changes', async () => {
    expect((await run('rerun', 'rerun-state')).status).toBe('pushed');
    expect(await run('rerun', 'rerun-state')).toMatchObject({ status: 'skipped', skipped: 'unchanged' });
    await server.ldapModify(
      'dn: cn=finance,ou=groups,dc=corp,dc=example\nchangetype: modify\nadd: member\nmember: uid=zmartin,ou=people,dc=corp,dc=example\n',
    );
    const changed = await run('rerun', 'rerun-state');
    expect(changed.status).toBe('pushed');
    expect(changed.diff.byKind.users).toMatchObject({ changed: 1 });
  });
});
