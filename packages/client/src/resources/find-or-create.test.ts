/**
 * Find-or-create when another process creates the same name between this one's lookup and its
 * create (two runs on one provider at once): the service's refusal of the second create is answered
 * by reusing what the other one made, not by failing the run.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../client.js';
import { startClientTestEmulator } from '../private-test-helpers/emulator.js';
import type { ClientTestEmulator } from '../private-test-helpers/emulator.js';

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

/**
 * A client whose first `POST` to a path ending in `suffix` waits for `rival` to finish before it
 * leaves: the rival's create lands between this client's lookup and its own create.
 */
function racedClient(suffix: string, rival: () => Promise<unknown>): Client {
  let raced = false;
  const fetchRaced: typeof fetch = async (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if (!raced && init?.method === 'POST' && path.endsWith(suffix)) {
      raced = true;
      await rival();
    }
    return fetch(input, init);
  };
  return emu.client({ fetch: fetchRaced });
}

describe('find-or-create meeting another creator', () => {
  it('reuses the provider another process created between the lookup and the create', async () => {
    let theirs: { id: string } | undefined;
    const client = racedClient('/providers/custom', async () => {
      theirs = await emu.client().providers.create({ name: 'HR', template: 'hris' });
    });
    const ours = await client.providers.findOrCreate({ name: 'HR', template: 'hris' });
    expect(ours).toEqual({ provider: expect.objectContaining({ id: theirs?.id }), created: false });
    expect(await emu.client().providers.list().toArray()).toHaveLength(1);
    // The create did go out and was refused over the name.
    const creates = await emu.admin.calls.list({ method: 'POST', path: '/api/v1/providers/custom' });
    expect(creates.map((c) => c.status)).toEqual([200, 400]);
  });

  it('still refuses a provider of another template created at that moment', async () => {
    const client = racedClient('/providers/custom', () =>
      emu.client().providers.create({ name: 'HR', template: 'application' }),
    );
    await expect(client.providers.findOrCreate({ name: 'HR', template: 'hris' })).rejects.toMatchObject({
      code: 'PROVIDER_TEMPLATE_MISMATCH',
    });
  });

  it('reuses the data source another process created between the lookup and the create', async () => {
    const { provider } = await emu.client().providers.findOrCreate({ name: 'HR', template: 'hris' });
    let theirs: { id: string } | undefined;
    const client = racedClient('/datasources', async () => {
      theirs = await emu.client().dataSources.create({ providerId: provider.id, name: 'prod' });
    });
    const ours = await client.dataSources.findOrCreate({ providerId: provider.id, name: 'prod' });
    expect(ours).toEqual({ dataSource: expect.objectContaining({ id: theirs?.id }), created: false });
    expect(await emu.client().dataSources.list({ providerId: provider.id }).toArray()).toHaveLength(1);
  });

  it('fails with the refusal when the name is not taken but not allowed', async () => {
    await expect(
      emu.client().providers.findOrCreate({ name: 'HR/prod', template: 'hris' }),
    ).rejects.toMatchObject({ status: 400, violations: [expect.objectContaining({ field: 'name' })] });
  });
});
