import { describe, expect, it } from 'vitest';
import type { GraphEdgeView as EdgeView, GraphNodeView } from './read-graph.js';
import { samplePayload, useEmulator, type Harness } from '../private-test-helpers/harness.js';

/** Nodes as the graph endpoints answer them; the tests read only named nodes. */
type NodeView = GraphNodeView & { name: string };

async function graphOf(
  h: Harness,
  dataSourceId: string,
): Promise<{ nodes: NodeView[]; edges: EdgeView[]; byName: (type: string, name: string) => NodeView }> {
  const nodes = (await h.call('GET', `/_emulator/graph/nodes?data_source_id=${dataSourceId}`)).body
    .values as NodeView[];
  const edges = (await h.call('GET', `/_emulator/graph/edges?data_source_id=${dataSourceId}`)).body
    .values as EdgeView[];
  const byName = (type: string, name: string): NodeView => {
    const n = nodes.find((x) => x.type === type && x.name === name);
    if (!n) throw new Error(`no ${type} ${name}`);
    return n;
  };
  return { nodes, edges, byName };
}

function richPayload(): Record<string, unknown> {
  const p = samplePayload({
    custom_property_definition: {
      applications: [{ application_type: 'acme', local_user_properties: { department: 'STRING' } }],
    },
  });
  const app = (p.applications as Record<string, unknown>[])[0]!;
  app.tags = [{ key: 'env', value: 'prod' }];
  (app.local_users as Record<string, unknown>[])[0]!.custom_properties = { department: 'eng' };
  app.local_groups = [{ name: 'devs', groups: ['all'] }, { name: 'all' }];
  p.identity_to_permissions = [
    {
      identity: 'bob',
      identity_type: 'local_user',
      role_assignments: [{ application: 'acme', role: 'admin', apply_to_application: true }],
    },
    {
      identity: 'devs',
      identity_type: 'local_group',
      application_permissions: [{ application: 'acme', permission: 'read', resources: ['repo1'] }],
    },
  ];
  return p;
}

describe('graph store', () => {
  const h = useEmulator();

  it("holds the pushed entities as typed nodes linked by the model's edges", async () => {
    const t = await h().target();
    expect((await h().push(t.base, richPayload())).status).toBe(200);
    const g = await graphOf(h(), t.dataSourceId);
    const app = g.byName('OAA.acme.Application', 'acme');
    const bob = g.byName('OAA.acme.User', 'bob');
    const devs = g.byName('OAA.acme.Group', 'devs');
    const all = g.byName('OAA.acme.Group', 'all');
    const admin = g.byName('OAA.acme.Role', 'admin');
    const read = g.byName('OAA.acme.Permission', 'read');
    const repo = g.byName('OAA.acme.repo.Resource', 'repo1');
    const main = g.byName('OAA.acme.branch.SubResource', 'main');
    expect(bob.properties).toMatchObject({ name: 'bob', is_active: true, customprop_department: 'eng' });
    expect(bob.parent_id).toBe(app.id);
    expect(main.parent_id).toBe(repo.id);
    expect(app.tags).toEqual([{ key: 'env', value: 'prod' }]);

    const has = (kind: string, src: string | null, dst: string | null, extra: Partial<EdgeView> = {}) =>
      expect(g.edges).toContainEqual(expect.objectContaining({ kind, src, dst, ...extra }));
    has('CONTAINS', app.id, bob.id);
    has('CONTAINS', repo.id, main.id);
    has('MEMBER_OF', bob.id, devs.id);
    has('MEMBER_OF', devs.id, all.id);
    has('ROLE_HAS_PERMISSION', admin.id, read.id);
    has('HAS_ROLE', bob.id, admin.id, { scope: app.id });
    has('HAS_IDENTITY', bob.id, null, { ref: 'bob@example.com' });
    has('HAS_PERMISSION', devs.id, read.id, { scope: repo.id });
    // apply_to_sub_resources carries the grant down to the branch.
    has('HAS_PERMISSION', devs.id, read.id, { scope: main.id, properties: { inherited: true } });
  });

  it('keeps node ids and tags across pushes, and replaces the previous submission', async () => {
    const t = await h().target();
    const first = richPayload();
    ((first.applications as Record<string, unknown>[])[0]!.local_users as Record<string, unknown>[]).push({
      name: 'alice',
    });
    await h().push(t.base, first);
    const before = await graphOf(h(), t.dataSourceId);
    const second = richPayload();
    (second.applications as Record<string, unknown>[])[0]!.tags = [{ key: 'tier', value: 'gold' }];
    await h().push(t.base, second);
    const after = await graphOf(h(), t.dataSourceId);
    expect(after.byName('OAA.acme.User', 'bob').id).toBe(before.byName('OAA.acme.User', 'bob').id);
    expect(after.nodes.some((n) => n.name === 'alice')).toBe(false);
    expect(after.byName('OAA.acme.Application', 'acme').tags).toEqual([
      { key: 'env', value: 'prod' },
      { key: 'tier', value: 'gold' },
    ]);
    expect(after.nodes).toHaveLength(before.nodes.length - 1);
  });

  it('links local identities to identity-provider users pushed by another provider', async () => {
    const app = await h().target();
    const idp = await h().target('identity_provider');
    const idpPayload = {
      name: 'corp',
      idp_type: 'corpdir',
      domains: [{ name: 'corp.example' }],
      users: [
        { name: 'Bob', email: 'BOB@example.com', identity: 'u1', groups: [{ identity: 'g1' }] },
        { name: 'Carol', email: 'carol@example.com', identity: 'u2', manager_id: 'u1' },
      ],
      groups: [{ name: 'Engineering', identity: 'g1' }],
    };
    expect((await h().push(idp.base, idpPayload)).status).toBe(200);
    const r = await h().push(app.base, samplePayload());
    expect(r.body.warnings).toEqual([]);
    const stats = (await h().call('GET', `/_emulator/graph/stats?data_source_id=${app.dataSourceId}`)).body;
    expect(stats.identity_links).toBe(1);
    const g = await graphOf(h(), idp.dataSourceId);
    const bob = g.byName('OAA.corpdir.IdPUser', 'Bob');
    expect(g.edges).toContainEqual(
      expect.objectContaining({
        kind: 'MEMBER_OF',
        src: bob.id,
        dst: g.byName('OAA.corpdir.IdPGroup', 'Engineering').id,
      }),
    );
    expect(g.edges).toContainEqual(
      expect.objectContaining({
        kind: 'MANAGED_BY',
        src: g.byName('OAA.corpdir.IdPUser', 'Carol').id,
        dst: bob.id,
      }),
    );
    expect(
      (await h().call('GET', `/api/v1/providers/custom/${idp.providerId}`)).body.value.idp_types,
    ).toEqual(['corpdir']);
  });

  it('ingests an hris payload with employees, groups and manager links', async () => {
    const t = await h().target('hris');
    const payload = {
      name: 'hr',
      hris_type: 'hrsys',
      system: { id: 'sys', name: 'HR System' },
      employees: [
        {
          id: 'e1',
          name: 'Ann',
          employee_number: '1',
          first_name: 'Ann',
          last_name: 'A',
          employment_status: 'ACTIVE',
          is_active: true,
          department: { id: 'd1' },
        },
        {
          id: 'e2',
          name: 'Ben',
          employee_number: '2',
          first_name: 'Ben',
          last_name: 'B',
          employment_status: 'ACTIVE',
          is_active: true,
          managers: [{ id: 'e1' }],
        },
      ],
      groups: [{ id: 'd1', name: 'Sales', group_type: 'Department' }],
    };
    expect((await h().push(t.base, payload)).status).toBe(200);
    const g = await graphOf(h(), t.dataSourceId);
    const ann = g.byName('OAA.hrsys.HRISEmployee', 'Ann');
    expect(g.edges).toContainEqual(
      expect.objectContaining({
        kind: 'MANAGED_BY',
        src: g.byName('OAA.hrsys.HRISEmployee', 'Ben').id,
        dst: ann.id,
      }),
    );
    expect(g.edges).toContainEqual(
      expect.objectContaining({
        kind: 'DEPARTMENT',
        src: ann.id,
        dst: g.byName('OAA.hrsys.HRISGroup', 'Sales').id,
      }),
    );
    expect(ann.parent_id).toBe(g.byName('OAA.hrsys.HRISSystem', 'HR System').id);
  });
});
