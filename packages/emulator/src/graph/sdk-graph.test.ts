import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GraphEdgeView as EdgeView, GraphNodeView } from './read-graph.js';
import { useEmulator, type Harness, type Json } from '../private-test-helpers/harness.js';

/**
 * Payloads with every field the vendor's Python SDK emits, built by core's builders and committed in
 * `packages/core/fixtures/sdk-fields`.
 */
const SDK = fileURLToPath(new URL('../../../core/fixtures/sdk-fields/', import.meta.url));
const sdkFixture = (name: string): Json => JSON.parse(readFileSync(`${SDK}${name}.json`, 'utf8'));

/** Nodes as the graph endpoints answer them; the tests read only named nodes. */
type NodeView = GraphNodeView & { name: string };

async function graphOf(h: Harness, dataSourceId: string) {
  const q = `data_source_id=${dataSourceId}&limit=1000`;
  const nodes = (await h.call('GET', `/_emulator/graph/nodes?${q}`)).body.values as NodeView[];
  const edges = (await h.call('GET', `/_emulator/graph/edges?${q}`)).body.values as EdgeView[];
  const node = (type: string, name: string): NodeView => {
    const found = nodes.filter((x) => x.type === type && x.name === name);
    expect(found, `${type} ${name}`).toHaveLength(1);
    return found[0]!;
  };
  /** The edges of `kind`, as [source name or ref, destination name or ref, properties]. */
  const named = (kind: string) => {
    const nameOf = (id: string | null) => nodes.find((n) => n.id === id)?.name ?? null;
    return edges
      .filter((e) => e.kind === kind)
      .map((e) => [nameOf(e.src) ?? e.ref, nameOf(e.dst) ?? e.ref, e.properties]);
  };
  return { nodes, edges, node, named };
}

function app(overrides: Json): Json {
  return {
    applications: [
      {
        name: 'acme',
        application_type: 'acme',
        local_users: [],
        local_groups: [],
        local_roles: [],
        local_access_creds: [],
        resources: [],
        ...overrides.app,
      },
    ],
    permissions: [
      { name: 'read', permission_type: ['DataRead'] },
      { name: 'write', permission_type: ['DataWrite'] },
    ],
    identity_to_permissions: overrides.grants ?? [],
  };
}

describe('graph of SDK-shaped payloads', () => {
  const h = useEmulator();

  it('keys local users by id, then unique_id, then name, keys winning over other names', async () => {
    const t = await h().target();
    const payload = app({
      app: {
        local_users: [
          { name: 'ann', id: 'u1' },
          // Its name is the other user's id: a grant naming "u1" means the user whose key it is.
          { name: 'u1', id: 'u2' },
          { name: 'ann', id: 'u3', unique_id: 'legacy-3' },
        ],
        local_roles: [{ name: 'reader', id: 'r1', permissions: ['read'] }],
      },
      grants: [
        {
          identity: 'u1',
          identity_type: 'local_user',
          role_assignments: [{ application: 'acme', role: 'r1' }],
        },
        {
          identity: 'legacy-3',
          identity_type: 'local_user',
          application_permissions: [{ application: 'acme', permission: 'write' }],
        },
      ],
    });
    const r = await h().push(t.base, payload);
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([]);
    const g = await graphOf(h(), t.dataSourceId);
    expect(g.nodes.filter((n) => n.type === 'OAA.acme.User').map((n) => n.properties.id)).toEqual([
      'u1',
      'u2',
      'u3',
    ]);
    const holder = g.edges.find((e) => e.kind === 'HAS_ROLE')!;
    expect(g.nodes.find((n) => n.id === holder.src)!.properties.id).toBe('u1');
    const writer = g.edges.find((e) => e.kind === 'HAS_PERMISSION')!;
    expect(g.nodes.find((n) => n.id === writer.src)!.properties.id).toBe('u3');
  });

  it('gives the holder of a role its nested roles’ permissions, and warns of nothing for a role that only nests', async () => {
    const t = await h().target();
    const payload = app({
      app: {
        local_users: [{ name: 'bob' }],
        local_roles: [
          { name: 'Top', id: 'r-top', roles: ['r-mid'] },
          { name: 'Mid', id: 'r-mid', permissions: ['write'], roles: ['r-low'] },
          { name: 'Low', id: 'r-low', permissions: ['read'] },
        ],
      },
      grants: [
        {
          identity: 'bob',
          identity_type: 'local_user',
          role_assignments: [{ application: 'acme', role: 'r-top' }],
        },
      ],
    });
    const r = await h().push(t.base, payload);
    expect(r.body.warnings).toEqual([]);
    const g = await graphOf(h(), t.dataSourceId);
    expect(g.named('ROLE_HAS_ROLE')).toEqual([
      ['Top', 'Mid', null],
      ['Mid', 'Low', null],
    ]);
    expect(g.named('HAS_ROLE')).toEqual([['bob', 'Top', null]]);
    // Following HAS_ROLE then ROLE_HAS_PERMISSION gives bob write and read through Top.
    expect(g.named('ROLE_HAS_PERMISSION')).toEqual(
      expect.arrayContaining([
        ['Top', 'write', { inherited: true, via_role: 'Mid' }],
        ['Top', 'read', { inherited: true, via_role: 'Low' }],
        ['Mid', 'write', null],
        ['Mid', 'read', { inherited: true, via_role: 'Low' }],
        ['Low', 'read', null],
      ]),
    );
    expect(g.named('ROLE_HAS_PERMISSION')).toHaveLength(5);
  });

  it('still warns, as the service does, of a role with neither permissions nor nested roles', async () => {
    const t = await h().target();
    const payload = app({ app: { local_users: [{ name: 'bob' }], local_roles: [{ name: 'Empty' }] } });
    const r = await h().push(t.base, payload);
    expect(r.body.warnings).toEqual([
      { message: expect.stringContaining('Role is missing permission: local role "Empty"') },
    ]);
  });

  it('warns once of a connection node type outside the known ones, naming them, and keeps the link', async () => {
    const t = await h().target();
    const payload = app({
      app: {
        local_users: [{ name: 'bob' }],
        resources: [
          {
            name: 'db1',
            resource_type: 'db',
            connections: [
              { id: 'sa@x.iam.gserviceaccount.com', node_type: 'GoogleCloudServiceAccount' },
              { id: 'u1', node_type: 'MainframeUser' },
              { id: 'u2', node_type: 'MainframeUser' },
              { id: 'r1', node_type: 'awsiamrole' },
            ],
          },
        ],
      },
    });
    const r = await h().push(t.base, payload);
    expect(r.status).toBe(200);
    const messages = (r.body.warnings as { message: string }[]).map((w) => w.message);
    const known =
      'SnowflakeUser, GoogleCloudServiceAccount, AwsIamRole, AzureADEnterpriseApplication, TrinoUser';
    expect(messages).toEqual([
      `resource "db1" of application "acme" connects to node type "MainframeUser", which is not a known node type: use one of ${known}; the connection links to nothing`,
      `resource "db1" of application "acme" connects to node type "awsiamrole", which is not a known node type (did you mean AwsIamRole? node types are case-sensitive): use one of ${known}; the connection links to nothing`,
    ]);
    const g = await graphOf(h(), t.dataSourceId);
    expect(g.named('CONNECTED_TO').map(([, ref]) => ref)).toEqual([
      'GoogleCloudServiceAccount:sa@x.iam.gserviceaccount.com',
      'MainframeUser:u1',
      'MainframeUser:u2',
      'awsiamrole:r1',
    ]);
  });

  it('writes access credentials with their grants and users, and owners as OWNS edges', async () => {
    const t = await h().target();
    const payload = app({
      app: {
        owners: [{ external_id: 'Boss@Example.com', owner_type: 'oktauser', primary: true }],
        local_users: [{ name: 'bob', id: 'u-bob', access_creds: ['k1'] }],
        local_access_creds: [
          {
            id: 'k1',
            name: 'Deploy key',
            is_active: true,
            owners: [{ external_id: 'u-bob', owner_type: 'OAA.acme.User', primary: false }],
          },
        ],
        local_roles: [{ name: 'reader', permissions: ['read'] }],
      },
      grants: [
        {
          identity: 'k1',
          identity_type: 'local_access_creds',
          application_permissions: [{ application: 'acme', permission: 'write' }],
          role_assignments: [{ application: 'acme', role: 'reader' }],
        },
      ],
    });
    const r = await h().push(t.base, payload);
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([]);
    const g = await graphOf(h(), t.dataSourceId);
    expect(g.node('OAA.acme.AccessCred', 'Deploy key').properties).toMatchObject({
      id: 'k1',
      is_active: true,
    });
    expect(g.named('HAS_ACCESS_CRED')).toEqual([['bob', 'Deploy key', null]]);
    expect(g.named('HAS_PERMISSION')).toEqual([['Deploy key', 'write', null]]);
    expect(g.named('HAS_ROLE')).toEqual([['Deploy key', 'reader', null]]);
    expect(g.named('OWNS')).toEqual([
      // An owner outside this graph: named by its external id, as identity-provider users are keyed.
      ['boss@example.com', 'acme', { owner_type: 'oktauser', primary: true }],
      // An owner that is a user of this application: linked to it.
      ['bob', 'Deploy key', { owner_type: 'OAA.acme.User', primary: false }],
    ]);
  });

  it('writes an identity provider’s identity_type, group source identities and assignment properties', async () => {
    const t = await h().target('identity_provider');
    const r = await h().push(t.base, sdkFixture('identity_provider'));
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([]);
    const g = await graphOf(h(), t.dataSourceId);
    expect(g.node('OAA.maxidp.IdPUser', 'u1').properties).toMatchObject({ identity_type: 'NONHUMAN' });
    expect(g.named('SOURCE_IDENTITY')).toEqual([
      ['g1', 'active_directory:g1@corp.example.com', null],
      ['u1', 'google_workspace:u1@corp.example.com', null],
    ]);
    expect(g.named('ASSIGNED_TO')).toEqual([
      [
        'g1',
        'App One',
        { assignment_id: 'asg2', assignment_name: 'Admin', customprop_added_on: '2024-01-01T00:00:00Z' },
      ],
      [
        'u1',
        'App One',
        { assignment_id: 'asg1', assignment_name: 'Member', customprop_added_on: '2024-01-01T00:00:00Z' },
      ],
    ]);
  });
});
