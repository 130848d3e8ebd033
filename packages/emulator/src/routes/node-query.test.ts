import { describe, expect, it } from 'vitest';
import { useEmulator, values, violations, type Harness } from '../private-test-helpers/harness.js';

const QUERY = '/api/v1/assessments/query_spec:nodes';

function payload(): Record<string, unknown> {
  const users = Array.from({ length: 7 }, (_, i) => ({
    name: `user${i}`,
    is_active: i % 2 === 0,
    created_at: `2024-0${i + 1}-15T00:00:00Z`,
    custom_properties: { level: i * 10, vip: i === 3, dept: i < 4 ? 'Engineering' : 'Sales' },
  }));
  return {
    custom_property_definition: {
      applications: [
        {
          application_type: 'acme',
          local_user_properties: { level: 'NUMBER', vip: 'BOOLEAN', dept: 'STRING' },
        },
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
    identity_to_permissions: [],
  };
}

const users = (specs: unknown[] = []) => ({
  source_node_types: { nodes: [{ node_type: 'OAA.acme.User', condition_expression: { specs } }] },
});

async function names(h: Harness, body: unknown, qs = ''): Promise<string[]> {
  const r = await h.call('POST', `${QUERY}${qs}`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return values<{ properties: { name: string } }>(r).map((v) => v.properties.name);
}

describe('node query', () => {
  const h = useEmulator();
  const setup = async (): Promise<void> => {
    const t = await h().target();
    const r = await h().push(t.base, payload());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };

  it('compares strings, numbers, booleans and timestamps, on custom properties and name', async () => {
    await setup();
    const q = (fn: string, property: string, value: unknown) => names(h(), users([{ fn, property, value }]));
    expect(await q('EQ', 'customprop_dept', 'sales')).toEqual(['user4', 'user5', 'user6']);
    expect(await q('NOT_EQ', 'customprop_dept', 'Sales')).toEqual(['user0', 'user1', 'user2', 'user3']);
    expect(await q('CONTAINS', 'name', 'ER3')).toEqual(['user3']);
    expect(await q('STARTS_WITH', 'customprop_dept', 'Eng')).toHaveLength(4);
    expect(await q('ENDS_WITH', 'name', '6')).toEqual(['user6']);
    expect(await q('GT', 'customprop_level', 40)).toEqual(['user5', 'user6']);
    expect(await q('GTE', 'customprop_level', 40)).toEqual(['user4', 'user5', 'user6']);
    expect(await q('LT', 'customprop_level', '20')).toEqual(['user0', 'user1']);
    expect(await q('LTE', 'customprop_level', 0)).toEqual(['user0']);
    expect(await q('EQ', 'customprop_vip', true)).toEqual(['user3']);
    expect(await q('EQ', 'is_active', false)).toEqual(['user1', 'user3', 'user5']);
    expect(await q('GT', 'created_at', '2024-05-01T00:00:00+02:00')).toEqual(['user4', 'user5', 'user6']);
    expect(await q('LT', 'created_at', '2024-02-15T00:00:01Z')).toEqual(['user0', 'user1']);
    // Every spec must hold.
    expect(
      await names(
        h(),
        users([
          { fn: 'EQ', property: 'customprop_dept', value: 'Engineering' },
          { fn: 'EQ', property: 'is_active', value: true },
        ]),
      ),
    ).toEqual(['user0', 'user2']);
  });

  it('pages with page_size and page_token until has_more is false', async () => {
    await setup();
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    for (;;) {
      const qs = `?page_size=3${token ? `&page_token=${encodeURIComponent(token)}` : ''}`;
      const r = await h().call('POST', `${QUERY}${qs}`, users());
      expect(r.status).toBe(200);
      seen.push(...values<{ properties: { name: string } }>(r).map((v) => v.properties.name));
      pages++;
      if (!r.body.has_more) break;
      token = r.body.next_page_token;
    }
    expect(seen).toEqual(['user0', 'user1', 'user2', 'user3', 'user4', 'user5', 'user6']);
    expect(pages).toBe(3);
  });

  it('answers ids, types, properties with tags, and a node by node_id; include_nodes false leaves properties out', async () => {
    await setup();
    const r = await h().call('POST', QUERY, users([{ fn: 'EQ', property: 'name', value: 'user2' }]));
    const [v] = values<any>(r);
    expect(v).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'OAA.acme.User',
      properties: expect.objectContaining({ name: 'user2', customprop_level: 20, tags: [] }),
      destination_node_count: 0,
      permissions: [],
    });
    const byId = await h().call('POST', QUERY, {
      source_node_types: { nodes: [{ node_type: 'OAA.acme.User', node_id: v.id }] },
      include_nodes: false,
    });
    expect(values(byId)).toEqual([
      { id: v.id, type: 'OAA.acme.User', properties: {}, destination_node_count: 0, permissions: [] },
    ]);
  });

  it('refuses what is out of bounds or malformed with a 400 naming the field', async () => {
    await setup();
    const fields = async (body: unknown, qs = ''): Promise<string[]> => {
      const r = await h().call('POST', `${QUERY}${qs}`, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('InvalidArgument');
      return violations(r.body).map((v) => v.field);
    };
    expect(await fields(users(), '?page_size=101')).toEqual(['page_size']);
    expect(await fields(users(), '?page_size=0')).toEqual(['page_size']);
    expect(await fields(users(), '?page_token=garbage')).toEqual(['page_token']);
    const first = await h().call('POST', `${QUERY}?page_size=1`, users());
    const token = encodeURIComponent(first.body.next_page_token);
    expect(await fields(users([{ fn: 'EQ', property: 'name', value: 'x' }]), `?page_token=${token}`)).toEqual(
      ['page_token'],
    );
    expect(await fields({ ...users(), query_type: 'SOMETHING' })).toEqual(['query_type']);
    expect(await fields(users([{ fn: 'LIKE', property: 'name', value: 'x' }]))).toEqual([
      'source_node_types.nodes[0].condition_expression.specs[0].fn',
    ]);
    expect(await fields(users([{ fn: 'EQ', property: 'name', value: 'x'.repeat(257) }]))).toEqual([
      'source_node_types.nodes[0].condition_expression.specs[0].value',
    ]);
    const manySpecs = Array.from({ length: 21 }, () => ({ fn: 'EQ', property: 'name', value: 'x' }));
    expect(await fields(users(manySpecs))).toEqual(['source_node_types.nodes[0].condition_expression.specs']);
    const manyTypes = {
      source_node_types: { nodes: Array.from({ length: 21 }, () => ({ node_type: 'T' })) },
    };
    expect(await fields(manyTypes)).toEqual(['source_node_types.nodes']);
    expect(await fields({ source_node_types: { nodes: [] } })).toEqual(['source_node_types.nodes']);
    expect(await fields({ ...users(), query_type: 'DESTINATION_NODES' })).toEqual([
      'destination_node_types.nodes',
    ]);
    expect(await fields({ ...users(), canonical_permissions: { values: ['DataRead'] } })).toEqual([
      'destination_node_types',
    ]);
    expect(
      await fields({
        ...users(),
        destination_node_types: { nodes: [{ node_type: 'OAA.acme.Application' }] },
        canonical_permissions: { values: ['Everything'] },
      }),
    ).toEqual(['canonical_permissions.values[0]']);
    expect(await fields({ ...users(), extra: 1 })).toEqual(['extra']);
  });

  it('refuses to follow group nesting deeper than 64 levels, naming the side to narrow', async () => {
    const t = await h().target();
    // g0 is in g1, g1 in g2, ... g69: a user in g0 reaches g69 through 70 levels.
    const groups = Array.from({ length: 70 }, (_, i) => ({
      name: `g${i}`,
      ...(i < 69 ? { groups: [`g${i + 1}`] } : {}),
    }));
    const p = {
      applications: [
        {
          name: 'deep',
          application_type: 'deep',
          local_users: [{ name: 'u', groups: ['g0'] }],
          local_groups: groups,
        },
      ],
      permissions: [],
      identity_to_permissions: [],
    };
    expect((await h().push(t.base, p)).status).toBe(200);
    const r = await h().call('POST', QUERY, {
      source_node_types: { nodes: [{ node_type: 'OAA.deep.User' }] },
      destination_node_types: { nodes: [{ node_type: 'OAA.deep.Group' }] },
    });
    expect(r.status).toBe(400);
    expect(violations(r.body)).toEqual([
      {
        field: 'destination_node_types',
        description: expect.stringContaining('nested more than 64 levels deep'),
      },
    ]);
  });

  it('needs an API key', async () => {
    const r = await h().call('POST', QUERY, users(), { key: null });
    expect(r.status).toBe(401);
  });
});
