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

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>';

describe('CSV push, icons and templates', () => {
  it('pushes a CSV file in base64 to a provider with a column mapping', async () => {
    const client = emu.client();
    const configuration_json = JSON.stringify({
      csv: {
        template: 'application',
        columns: { User: 'name', Groups: 'groups', Active: 'is_active' },
        list_separator: ';',
      },
    });
    const provider = await client.providers.create({
      name: 'Legacy App',
      template: 'application',
      configuration_json,
    });
    const ds = await client.dataSources.create({ providerId: provider.id, name: 'legacy' });
    const ref = { providerId: provider.id, dataSourceId: ds.id };
    const result = await client.push.csv({
      ...ref,
      csv: 'User,Groups,Active\nann,admins;staff,yes\nbob,staff,no\n',
    });
    expect(result.warnings).toBeInstanceOf(Array);
    expect((await client.dataSources.get(ref)).status).toBe('SUCCESS');
    const bad = await client.push
      .csv({ ...ref, csv: 'User,Groups,Active\n,staff,maybe\n' })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, code: 'InvalidArgument' });
  });

  it('sets, reads and deletes a provider icon', async () => {
    const client = emu.client();
    const provider = await client.providers.create({ name: 'Iconic', template: 'application' });
    await client.icons.set({ providerId: provider.id, icon: Buffer.from(SVG) });
    const icon = await client.icons.get(provider.id);
    expect(icon.mime_type).toBe('image/svg+xml');
    expect(Buffer.from(icon.icon_base64, 'base64').toString()).toBe(SVG);
    await client.icons.delete(provider.id);
    await expect(client.icons.get(provider.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      client.icons.set({ providerId: provider.id, icon: Buffer.from('not an image') }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('lists the three provider templates', async () => {
    const templates = await emu.client().templates.list();
    expect(JSON.stringify(templates)).toMatch(/application/);
    expect(JSON.stringify(templates)).toMatch(/identity_provider/);
    expect(JSON.stringify(templates)).toMatch(/hris/);
  });
});
