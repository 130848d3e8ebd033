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

describe('providers', () => {
  it('creates, gets, lists and deletes a provider', async () => {
    const client = emu.client();
    const created = await client.providers.create({ name: 'HR Export', template: 'hris' });
    expect(created).toMatchObject({ name: 'HR Export', custom_template: 'hris', state: 'ENABLED' });
    expect(await client.providers.get(created.id)).toMatchObject({ id: created.id, name: 'HR Export' });
    expect((await client.providers.list().toArray()).map((p) => p.id)).toEqual([created.id]);
    await client.providers.delete(created.id);
    await expect(client.providers.get(created.id)).rejects.toMatchObject({ status: 404, code: 'NotFound' });
    expect(await client.providers.findByName('HR Export')).toBeUndefined();
  });

  it('find-or-create reuses the provider with the same name', async () => {
    const client = emu.client();
    const first = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
    const second = await client.providers.findOrCreate({ name: 'Wiki', template: 'application' });
    expect(first.created).toBe(true);
    expect(second).toEqual({ provider: first.provider, created: false });
    expect(await client.providers.list().toArray()).toHaveLength(1);
    await expect(client.providers.findOrCreate({ name: 'Wiki', template: 'hris' })).rejects.toMatchObject({
      code: 'PROVIDER_TEMPLATE_MISMATCH',
    });
  });

  it('walks every page of a list', async () => {
    const client = emu.client();
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const name of names) await client.providers.create({ name, template: 'application' });
    const list = client.providers.list({ pageSize: 2, orderBy: 'name' });
    let pages = 0;
    for await (const _page of list.pages()) pages++;
    expect(pages).toBeGreaterThanOrEqual(3);
    expect((await list.toArray()).map((p) => p.name).sort()).toEqual(names);
  });

  it('finds names with spaces and quotes, sending spaces as + and never %2B', async () => {
    const client = emu.client();
    const tricky = await client.providers.create({ name: 'Acme "Main" App', template: 'application' });
    await client.providers.create({ name: 'Acme Main App', template: 'application' });
    await client.providers.create({ name: 'R&D: Ops', template: 'application' });
    expect((await client.providers.findByName('Acme "Main" App'))?.id).toBe(tricky.id);
    expect((await client.providers.findByName('R&D: Ops'))?.name).toBe('R&D: Ops');
    const lists = await emu.admin.calls.list({ method: 'GET', path: '/api/v1/providers/custom' });
    const queries = lists.map((c) => c.query);
    expect(queries).toContain('filter=name+eq+%22Acme+%5C%22Main%5C%22+App%22');
    expect(queries).toContain('filter=name+eq+%22R%26D%3A+Ops%22');
    expect(queries.join('&')).not.toContain('%2B');
  });

  it('makes an hris provider the system of record with update, and turns it off again', async () => {
    const client = emu.client();
    const hr = await client.providers.create({ name: 'Workday', template: 'hris' });
    expect(hr.provisioning).toBeNull();
    const on = await client.providers.update(hr.id, { provisioning: true });
    expect(on).toMatchObject({ id: hr.id, name: 'Workday', provisioning: true });
    expect((await client.providers.get(hr.id)).provisioning).toBe(true);
    expect((await client.providers.findByName('Workday'))?.provisioning).toBe(true);
    expect((await client.providers.update(hr.id, { provisioning: false })).provisioning).toBe(false);
    expect((await client.providers.get(hr.id)).provisioning).toBe(false);
  });

  it('answers update on a provider of another template with a typed 400 naming provisioning', async () => {
    const client = emu.client();
    const app = await client.providers.create({ name: 'Wiki', template: 'application' });
    const error = await client.providers.update(app.id, { provisioning: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    const e = error as ServiceError;
    expect(e).toMatchObject({ status: 400, code: 'InvalidArgument', method: 'PATCH' });
    expect(e.violations).toEqual([
      {
        field: 'provisioning',
        description:
          'only hris providers can be the system of record; this provider has the application template',
      },
    ]);
    expect((await client.providers.get(app.id)).provisioning).toBeNull();
    await expect(
      client.providers.update('00000000-0000-4000-8000-000000000000', { provisioning: true }),
    ).rejects.toMatchObject({ status: 404, code: 'NotFound' });
  });

  it('retries an update the service failed, and the change happens once', async () => {
    const client = emu.client();
    const hr = await client.providers.create({ name: 'BambooHR', template: 'hris' });
    await emu.admin.faults.add({ method: 'PATCH', path: '/api/v1/providers/custom/*', status: 503 });
    expect((await client.providers.update(hr.id, { provisioning: true })).provisioning).toBe(true);
    const patches = await emu.admin.calls.list({ method: 'PATCH' });
    expect(patches.map((c) => c.status)).toEqual([503, 200]);
    const events = await emu.admin.events({ eventType: 'PROVIDER_CONFIG_CHANGED' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entity: 'PROVIDER', entity_id: hr.id, entity_name: 'BambooHR' });
  });

  it('answers a bad create with a typed 400 naming the field', async () => {
    const client = emu.client();
    const error = await client.providers
      .create({ name: 'Bad', template: 'nope' as 'hris' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    const e = error as ServiceError;
    expect(e).toMatchObject({
      status: 400,
      code: 'InvalidArgument',
      reason: 'INVALID_ARGUMENTS',
      method: 'POST',
      path: '/api/v1/providers/custom',
    });
    expect(e.violations.map((v) => v.field)).toContain('custom_template');
    expect(e.requestId).toMatch(/\w+/);
  });
});
