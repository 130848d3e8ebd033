/**
 * The two directions of effective access agree: on random applications (nested groups, nested roles,
 * sub-resources, `resource_types`, `apply_to_sub_resources`, grants on the application and on
 * resources), what `DESTINATION_NODES` answers for each destination (count of users reaching it, the
 * canonical types they hold) is what the per-user explanations (`/_emulator/access`) say, inverted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useEmulator, values } from '../private-test-helpers/harness.js';

const TYPES = ['DataRead', 'DataWrite', 'MetadataRead'] as const;
const ORDER = ['DataRead', 'DataWrite', 'MetadataRead'];
const RESOURCES = ['S0', 'S0.P0', 'S0.P0.P00', 'S1'];

const permission = fc.record({
  types: fc.subarray([...TYPES], { minLength: 1 }),
  sub: fc.boolean(),
  spaceOnly: fc.boolean(),
});
const grant = fc.record({
  who: fc.tuple(fc.constantFrom('local_user', 'local_group'), fc.nat(4)),
  role: fc.option(fc.nat(3), { nil: undefined }),
  permission: fc.nat(3),
  resources: fc.subarray(RESOURCES),
  app: fc.boolean(),
});
const graph = fc.record({
  permissions: fc.array(permission, { minLength: 4, maxLength: 4 }),
  roles: fc.array(fc.record({ perms: fc.subarray([0, 1, 2, 3]), nested: fc.subarray([1, 2, 3]) }), {
    minLength: 4,
    maxLength: 4,
  }),
  groupParents: fc.array(fc.subarray([1, 2, 3, 4]), { minLength: 5, maxLength: 5 }),
  userGroups: fc.array(fc.subarray([0, 1, 2, 3, 4]), { minLength: 5, maxLength: 5 }),
  grants: fc.array(grant, { maxLength: 6 }),
});

type Graph = typeof graph extends fc.Arbitrary<infer T> ? T : never;

/** One `identity_to_permissions` entry per identity (the service refuses repeats). */
function grantsOf(g: Graph): Record<string, unknown>[] {
  const entries = new Map<
    string,
    {
      identity: string;
      identity_type: string;
      application_permissions: unknown[];
      role_assignments: unknown[];
    }
  >();
  for (const x of g.grants) {
    const identity = `${x.who[0] === 'local_user' ? 'u' : 'g'}${x.who[1]}`;
    let e = entries.get(identity);
    if (!e)
      entries.set(
        identity,
        (e = { identity, identity_type: x.who[0], application_permissions: [], role_assignments: [] }),
      );
    if (x.role === undefined)
      e.application_permissions.push({
        application: 'app',
        permission: `p${x.permission}`,
        resources: x.resources,
        apply_to_application: x.app,
      });
    else
      e.role_assignments.push({
        application: 'app',
        role: `r${x.role}`,
        resources: x.resources,
        apply_to_application: x.app,
      });
  }
  return [...entries.values()];
}

function payload(g: Graph): Record<string, unknown> {
  return {
    applications: [
      {
        name: 'app',
        application_type: 'rnd',
        local_users: g.userGroups.map((gs, i) => ({ name: `u${i}`, groups: gs.map((x) => `g${x}`) })),
        // A group's parents have higher numbers, a role's nested roles too: no cycles.
        local_groups: g.groupParents.map((ps, i) => ({
          name: `g${i}`,
          groups: ps.filter((p) => p > i).map((p) => `g${p}`),
        })),
        local_roles: g.roles.map((r, i) => ({
          name: `r${i}`,
          permissions: r.perms.map((p) => `p${p}`),
          roles: r.nested.filter((n) => n > i).map((n) => `r${n}`),
        })),
        resources: [
          {
            name: 'S0',
            resource_type: 'space',
            sub_resources: [
              { name: 'P0', resource_type: 'page', sub_resources: [{ name: 'P00', resource_type: 'page' }] },
            ],
          },
          { name: 'S1', resource_type: 'space' },
        ],
      },
    ],
    permissions: g.permissions.map((p, i) => ({
      name: `p${i}`,
      permission_type: p.types,
      apply_to_sub_resources: p.sub,
      ...(p.spaceOnly ? { resource_types: ['space'] } : {}),
    })),
    identity_to_permissions: grantsOf(g),
  };
}

describe('effective access forwards and backwards', () => {
  const h = useEmulator();

  it('DESTINATION_NODES is the inverse of the per-user explanations', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(graph, async (g) => {
        const t = await h().target();
        const pushed = await h().push(t.base, payload(g));
        expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
        const inverted = new Map<string, { users: number; types: Set<string> }>();
        for (let u = 0; u < 5; u++) {
          const r = await h().call('POST', '/_emulator/access', { identity: `u${u}` });
          const view = values<{ type: string; destinations: { name: string; permissions: string[] }[] }>(
            r,
          ).find((v) => v.type === 'OAA.rnd.User')!;
          for (const d of view.destinations) {
            const e = inverted.get(d.name) ?? { users: 0, types: new Set<string>() };
            e.users++;
            for (const p of d.permissions) e.types.add(p);
            inverted.set(d.name, e);
          }
        }
        const back = await h().call('POST', '/api/v1/assessments/query_spec:nodes', {
          query_type: 'DESTINATION_NODES',
          source_node_types: { nodes: [{ node_type: 'OAA.rnd.User' }] },
          destination_node_types: {
            nodes: ['OAA.rnd.Application', 'OAA.rnd.space.Resource', 'OAA.rnd.page.SubResource'].map(
              (node_type) => ({ node_type }),
            ),
          },
        });
        const got = Object.fromEntries(
          values<{ properties: { name: string }; destination_node_count: number; permissions: string[] }>(
            back,
          ).map((v) => [v.properties.name, [v.destination_node_count, v.permissions]]),
        );
        const want = Object.fromEntries(
          [...inverted].map(([name, e]) => [name, [e.users, ORDER.filter((x) => e.types.has(x))]]),
        );
        expect(got).toEqual(want);
        await h().call('DELETE', `/api/v1/providers/custom/${t.providerId}`);
      }),
      { numRuns: 25 },
    );
  });
});
