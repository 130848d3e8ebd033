/**
 * Effective access over HTTP against a graph whose expected permissions are computed by hand (see
 * private-test-helpers/access-graph.ts for the payloads). Canonical types: view = DataRead (inherited by
 * sub-resources), edit = DataWrite, admin_meta = MetadataRead + MetadataWrite (only on `space`
 * resources), delete = DataDelete. Roles: reader = view; editor = edit + reader; owner = admin_meta
 * + editor.
 */
import { describe, expect, it } from 'vitest';
import { pushAccessGraph } from '../private-test-helpers/access-graph.js';
import { useEmulator, values, type Harness } from '../private-test-helpers/harness.js';

const DESTINATIONS = ['OAA.wiki.Application', 'OAA.wiki.space.Resource', 'OAA.wiki.page.SubResource'];
const SOURCES = ['OAA.idp.IdPUser', 'OAA.hr.HRISEmployee', 'OAA.wiki.User'];

/** Source name -> destination name -> canonical types held, worked out by hand. */
const EXPECTED: Record<string, Record<string, string[]>> = {
  // IdP alice is in eng, which is in allstaff; allstaff is the identity of local group staff, and
  // alice's email is the identity of local user alice.local (in writers, in staff). staff holds
  // reader on S1 (view: DataRead, inherited by P1 and P1a); writers holds editor on P1 (edit:
  // DataWrite, and through nested reader view: DataRead, inherited by P1a). alice.local's direct
  // admin_meta on P1 gives nothing: admin_meta exists only for `space` resources and P1 is a page.
  alice: { S1: ['DataRead'], P1: ['DataRead', 'DataWrite'], P1a: ['DataRead'] },
  // IdP bob holds delete on the application through an `idp` grant naming his email.
  bob: { wiki: ['DataDelete'] },
  // Employees: E1's idp_id is alice's identity; E2 has no idp_id and bob's email; E3's idp_id
  // matches nobody, so its email (alice's) decides; E4's idp_id (bob) wins over its email (alice).
  E1: { S1: ['DataRead'], P1: ['DataRead', 'DataWrite'], P1a: ['DataRead'] },
  E2: { wiki: ['DataDelete'] },
  E3: { S1: ['DataRead'], P1: ['DataRead', 'DataWrite'], P1a: ['DataRead'] },
  E4: { wiki: ['DataDelete'] },
  // Local alice.local: through writers and staff, as IdP alice (a local account does not act as
  // its IdP identity, so no more than that).
  'alice.local': { S1: ['DataRead'], P1: ['DataRead', 'DataWrite'], P1a: ['DataRead'] },
  // carol holds owner on the application and on S1. owner = admin_meta + edit + view: on the
  // application every permission applies; on S1 (a space) too. Only view passes down to P1, P1a.
  carol: {
    wiki: ['DataRead', 'DataWrite', 'MetadataRead', 'MetadataWrite'],
    S1: ['DataRead', 'DataWrite', 'MetadataRead', 'MetadataWrite'],
    P1: ['DataRead'],
    P1a: ['DataRead'],
  },
};

const ORDER = [
  'DataRead',
  'DataWrite',
  'MetadataRead',
  'MetadataWrite',
  'NonData',
  'DataCreate',
  'DataDelete',
];
const union = (m: Record<string, string[]>) =>
  ORDER.filter((t) => Object.values(m).some((list) => list.includes(t)));

interface Value {
  id: string;
  type: string;
  properties: { name: string };
  destination_node_count: number;
  permissions: string[];
}

async function query(h: Harness, body: unknown, qs = ''): Promise<Value[]> {
  const r = await h.call('POST', `/api/v1/assessments/query_spec:nodes${qs}`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.has_more).toBe(false);
  return values<Value>(r);
}

const types = (list: string[], extra: Record<string, unknown> = {}) => ({
  nodes: list.map((node_type) => ({ node_type, ...extra })),
});

describe('effective access (hand-computed graph)', () => {
  const h = useEmulator();

  it('answers, per source, the destinations it reaches and the canonical permissions it holds', async () => {
    await pushAccessGraph(h());
    const got = await query(h(), {
      query_type: 'SOURCE_TO_DESTINATION',
      source_node_types: types(SOURCES),
      destination_node_types: types(DESTINATIONS),
    });
    const byName = Object.fromEntries(
      got.map((v) => [v.properties.name, [v.destination_node_count, v.permissions]]),
    );
    expect(byName).toEqual(
      Object.fromEntries(Object.entries(EXPECTED).map(([s, m]) => [s, [Object.keys(m).length, union(m)]])),
    );
  });

  it('explains each destination of each source with its permissions (/_emulator/access)', async () => {
    await pushAccessGraph(h());
    for (const [source, expected] of Object.entries(EXPECTED)) {
      const r = await h().call('POST', '/_emulator/access', { identity: source });
      expect(r.status).toBe(200);
      const view = values<{ type: string; destinations: { name: string; permissions: string[] }[] }>(r).find(
        (v) => SOURCES.includes(v.type),
      )!;
      const got = Object.fromEntries(view.destinations.map((d) => [d.name, d.permissions]));
      expect(got, source).toEqual(expected);
    }
  });

  it('gives the path through identity links, nested groups and roles', async () => {
    await pushAccessGraph(h());
    const r = await h().call('POST', '/_emulator/access', { identity: 'u-alice' });
    const alice = values<any>(r)[0];
    const s1 = alice.destinations.find((d: { name: string }) => d.name === 'S1');
    // alice -> eng -> allstaff (IdP nesting) -> staff (allstaff is staff's identity) holds reader on S1.
    expect(s1.grants).toEqual([
      {
        permission: expect.objectContaining({ name: 'view', type: 'OAA.wiki.Permission' }),
        canonical: ['DataRead'],
        path: [
          expect.objectContaining({ relation: 'MEMBER_OF', name: 'eng', type: 'OAA.idp.IdPGroup' }),
          expect.objectContaining({ relation: 'MEMBER_OF', name: 'allstaff', type: 'OAA.idp.IdPGroup' }),
          expect.objectContaining({ relation: 'LINKED_ACCOUNT', name: 'staff', type: 'OAA.wiki.Group' }),
        ],
        role: 'reader',
        nested_role: null,
        inherited: false,
      },
    ]);
    const p1 = alice.destinations.find((d: { name: string }) => d.name === 'P1');
    // On P1, view comes twice: inherited from staff's reader on S1, and from writers' editor,
    // whose nested role reader holds it.
    expect(
      p1.grants.map((g: any) => [g.permission.name, g.role, g.nested_role, g.inherited, g.path.at(-1).name]),
    ).toEqual(
      expect.arrayContaining([
        ['view', 'reader', null, true, 'staff'],
        ['edit', 'editor', null, false, 'writers'],
        ['view', 'editor', 'reader', false, 'writers'],
      ]),
    );
  });

  it('filters by canonical permissions (OR and AND)', async () => {
    await pushAccessGraph(h());
    const write = await query(h(), {
      source_node_types: types(SOURCES),
      destination_node_types: types(DESTINATIONS),
      canonical_permissions: { values: ['DataWrite'] },
    });
    // DataWrite: alice and alice.local, E1 and E3 on P1 only; carol on wiki and S1.
    expect(Object.fromEntries(write.map((v) => [v.properties.name, v.destination_node_count]))).toEqual({
      alice: 1,
      E1: 1,
      E3: 1,
      'alice.local': 1,
      carol: 2,
    });
    const both = await query(h(), {
      source_node_types: types(SOURCES),
      destination_node_types: types(DESTINATIONS),
      canonical_permissions: { values: ['DataWrite', 'MetadataWrite'], operator: 'AND' },
    });
    expect(both.map((v) => [v.properties.name, v.destination_node_count])).toEqual([['carol', 2]]);
  });

  it('answers DESTINATION_NODES with the sources reaching each destination', async () => {
    await pushAccessGraph(h());
    const got = await query(h(), {
      query_type: 'DESTINATION_NODES',
      source_node_types: types(SOURCES),
      destination_node_types: types(DESTINATIONS),
    });
    const expected: Record<string, [number, string[]]> = {};
    for (const dest of ['wiki', 'S1', 'P1', 'P1a']) {
      const holders = Object.values(EXPECTED).filter((m) => m[dest]);
      if (holders.length === 0) continue;
      expected[dest] = [holders.length, ORDER.filter((t) => holders.some((m) => m[dest]!.includes(t)))];
    }
    expect(
      Object.fromEntries(got.map((v) => [v.properties.name, [v.destination_node_count, v.permissions]])),
    ).toEqual(expected);
  });

  it('answers no_relation with the sources that reach no destination', async () => {
    await pushAccessGraph(h());
    const got = await query(h(), {
      source_node_types: types(['OAA.idp.IdPUser']),
      destination_node_types: types(DESTINATIONS),
      canonical_permissions: { values: ['DataRead'] },
      no_relation: true,
    });
    expect(got.map((v) => [v.properties.name, v.destination_node_count, v.permissions])).toEqual([
      ['bob', 0, []],
    ]);
  });

  it("passes an access credential's grants and an idp group's grants to their holders", async () => {
    const idp = await h().target('identity_provider');
    await h().push(idp.base, {
      name: 'dir',
      idp_type: 'dir',
      domains: [{ name: 'd.example' }],
      users: [{ name: 'dana', email: 'dana@d.example', identity: 'u-dana', groups: [{ identity: 'g-ops' }] }],
      groups: [{ name: 'ops', identity: 'g-ops' }],
    });
    const app = await h().target();
    const r = await h().push(app.base, {
      applications: [
        {
          name: 'vault',
          application_type: 'vault',
          local_users: [{ name: 'svc', access_creds: ['key1'] }],
          local_access_creds: [{ name: 'key1' }],
          resources: [{ name: 'secrets', resource_type: 'store' }],
        },
      ],
      permissions: [
        { name: 'read', permission_type: ['DataRead'] },
        { name: 'rotate', permission_type: ['MetadataWrite'] },
      ],
      identity_to_permissions: [
        {
          identity: 'key1',
          identity_type: 'local_access_creds',
          application_permissions: [{ application: 'vault', permission: 'read', resources: ['secrets'] }],
        },
        {
          identity: 'ops',
          identity_type: 'idp',
          application_permissions: [{ application: 'vault', permission: 'rotate', resources: ['secrets'] }],
        },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const got = await query(h(), {
      source_node_types: types(['OAA.vault.User', 'OAA.dir.IdPUser']),
      destination_node_types: types(['OAA.vault.store.Resource']),
    });
    // Node types in the order the request names them. svc holds key1, which holds read (DataRead);
    // dana is in ops, which holds rotate (MetadataWrite) through an `idp` grant naming the group.
    expect(got.map((v) => [v.properties.name, v.destination_node_count, v.permissions])).toEqual([
      ['svc', 1, ['DataRead']],
      ['dana', 1, ['MetadataWrite']],
    ]);
  });
});
