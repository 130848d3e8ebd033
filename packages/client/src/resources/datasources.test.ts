import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startClientTestEmulator } from '../private-test-helpers/emulator.js';
import type { ClientTestEmulator } from '../private-test-helpers/emulator.js';

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

describe('data sources', () => {
  it('creates, gets, lists, finds and deletes data sources of a provider', async () => {
    const client = emu.client();
    const { provider } = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
    const providerId = provider.id;
    const ds = await client.dataSources.create({ providerId, name: 'wiki.example.com (prod): main' });
    expect(ds.name).toBe('wiki.example.com (prod): main');
    expect(await client.dataSources.get({ providerId, dataSourceId: ds.id })).toMatchObject({
      id: ds.id,
      name: ds.name,
    });
    expect((await client.dataSources.findByName({ providerId, name: ds.name }))?.id).toBe(ds.id);
    expect(await client.dataSources.findByName({ providerId, name: 'other' })).toBeUndefined();

    const again = await client.dataSources.findOrCreate({ providerId, name: ds.name });
    expect(again).toMatchObject({ created: false, dataSource: { id: ds.id } });
    const other = await client.dataSources.findOrCreate({ providerId, name: 'second' });
    expect(other.created).toBe(true);
    expect(
      (await client.dataSources.list({ providerId, pageSize: 1 }).toArray()).map((d) => d.id).sort(),
    ).toEqual([ds.id, other.dataSource.id].sort());

    await client.dataSources.delete({ providerId, dataSourceId: ds.id });
    await expect(client.dataSources.get({ providerId, dataSourceId: ds.id })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('deleting a provider deletes its data sources', async () => {
    const client = emu.client();
    const { provider } = await client.providers.findOrCreate({ name: 'Gone', template: 'application' });
    const ds = await client.dataSources.create({ providerId: provider.id, name: 'one' });
    await client.providers.delete(provider.id);
    await expect(
      client.dataSources.get({ providerId: provider.id, dataSourceId: ds.id }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
