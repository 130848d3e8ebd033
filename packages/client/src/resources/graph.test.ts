import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { startClientTestEmulator } from '../private-test-helpers/emulator.js';
import type { ClientTestEmulator } from '../private-test-helpers/emulator.js';

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

const payload = (users: number) => ({
  applications: [
    {
      name: 'wiki',
      application_type: 'wiki',
      local_users: Array.from({ length: users }, (_, i) => ({ name: `user${i}`, groups: ['staff'] })),
      local_groups: [{ name: 'staff' }],
      resources: [{ name: 'S1', resource_type: 'space' }],
    },
  ],
  permissions: [{ name: 'view', permission_type: ['DataRead' as const] }],
  identity_to_permissions: [
    {
      identity: 'staff',
      identity_type: 'local_group' as const,
      application_permissions: [{ application: 'wiki', permission: 'view', resources: ['S1'] }],
    },
  ],
});

async function pushWiki(users: number): Promise<void> {
  const client = emu.client();
  const { provider } = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
  const { dataSource } = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'main' });
  await client.pushPayload({ providerId: provider.id, dataSourceId: dataSource.id, payload: payload(users) });
}

describe('graph: node queries and tags', () => {
  it('iterates node query results across pages until has_more is false', async () => {
    await pushWiki(7);
    const client = emu.client();
    const query = client.graph.queryNodes(
      {
        query_type: 'SOURCE_TO_DESTINATION',
        source_node_types: { nodes: [{ node_type: 'OAA.wiki.User' }] },
        destination_node_types: { nodes: [{ node_type: 'OAA.wiki.space.Resource' }] },
        canonical_permissions: { values: ['DataRead'] },
      },
      { pageSize: 3 },
    );
    const pages: number[] = [];
    for await (const page of query.pages()) pages.push(page.values?.length ?? 0);
    expect(pages).toEqual([3, 3, 1]);
    const all = await query.toArray();
    expect(all.map((v) => v.properties.name)).toEqual(Array.from({ length: 7 }, (_, i) => `user${i}`));
    expect(all[0]).toMatchObject({
      type: 'OAA.wiki.User',
      destination_node_count: 1,
      permissions: ['DataRead'],
    });
  });

  it('adds and removes tags on a node a query returned', async () => {
    await pushWiki(1);
    const client = emu.client();
    const users = () =>
      client.graph.queryNodes({ source_node_types: { nodes: [{ node_type: 'OAA.wiki.User' }] } }).toArray();
    const [user] = await users();
    await client.graph.addTags({ nodeId: user!.id, tags: [{ key: 'owner', value: 'team_a' }, { key: 'x' }] });
    expect((await users())[0]!.properties.tags).toEqual([
      { key: 'owner', value: 'team_a' },
      { key: 'x', value: '' },
    ]);
    await client.graph.removeTag({ nodeId: user!.id, key: 'x' });
    expect((await users())[0]!.properties.tags).toEqual([{ key: 'owner', value: 'team_a' }]);
  });

  it('surfaces the service errors: unknown node, page size over 100', async () => {
    const client = emu.client();
    const missing = await client.graph
      .addTags({ nodeId: 'nope', tags: [{ key: 'k' }] })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ServiceError);
    expect(missing).toMatchObject({ status: 404, code: 'NotFound' });
    const big = await client.graph
      .queryNodes({ source_node_types: { nodes: [{ node_type: 'OAA.wiki.User' }] } }, { pageSize: 101 })
      .toArray()
      .catch((e: unknown) => e);
    expect(big).toMatchObject({ status: 400, violations: [{ field: 'page_size' }] });
  });

  it('explains access through the emulator (admin key)', async () => {
    await pushWiki(1);
    const admin = emu.client({ apiKey: emu.adminKey });
    const [view] = await admin.graph.explainAccess({ identity: 'user0' });
    expect(
      view!.destinations.map((d) => [d.name, d.permissions, d.grants[0]!.path.map((s) => s.name)]),
    ).toEqual([['S1', ['DataRead'], ['staff']]]);
  });
});
