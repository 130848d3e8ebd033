/**
 * `PATCH /api/v1/providers/custom/{id}` with `{ provisioning }` (the vendor SDK's
 * `update_provisioning_status`): an hris provider becomes the system of record.
 */
import { describe, expect, it } from 'vitest';
import { RESOURCE_INFO_TYPE } from '../errors.js';
import { useEmulator, values, violations, type Answer } from '../private-test-helpers/harness.js';

const BASE = '/api/v1/providers/custom';
const ONLY_HRIS = 'only hris providers can be the system of record';

interface EventView {
  event_type: string;
  category: string;
  severity: string;
  entity: string;
  entity_id: string;
  entity_name: string;
  provider_id: string;
  message: string;
  error: unknown;
}

describe('PATCH provider { provisioning }', () => {
  const h = useEmulator();

  const patch = (id: string, body: unknown): Promise<Answer> => h().call('PATCH', `${BASE}/${id}`, body);
  const configEvents = async (): Promise<EventView[]> =>
    values<EventView>(await h().call('GET', '/_emulator/events?event_type=PROVIDER_CONFIG_CHANGED'));

  it('makes an hris provider the system of record, shown by get and list, and turns it off again', async () => {
    const p = await h().provider('Workday', 'hris');
    expect((await h().call('GET', `${BASE}/${p.id}`)).body.value.provisioning).toBeNull();

    const on = await patch(p.id, { provisioning: true });
    expect(on.status).toBe(200);
    expect(on.body.value).toMatchObject({ id: p.id, name: 'Workday', provisioning: true });
    expect((await h().call('GET', `${BASE}/${p.id}`)).body.value.provisioning).toBe(true);
    const listed = await h().call('GET', `${BASE}?filter=${encodeURIComponent('name eq "Workday"')}`);
    expect(values<{ provisioning: boolean }>(listed)[0]?.provisioning).toBe(true);

    const off = await patch(p.id, { provisioning: false });
    expect(off.body.value.provisioning).toBe(false);
    expect((await h().call('GET', `${BASE}/${p.id}`)).body.value.provisioning).toBe(false);
  });

  it('records PROVIDER_CONFIG_CHANGED for each change, and nothing when the value stays', async () => {
    const p = await h().provider('BambooHR', 'hris');
    await patch(p.id, { provisioning: true });
    await patch(p.id, { provisioning: true });
    await patch(p.id, { provisioning: false });
    const events = await configEvents();
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      category: 'INTEGRATIONS',
      severity: 'INFO',
      entity: 'PROVIDER',
      entity_id: p.id,
      entity_name: 'BambooHR',
      provider_id: p.id,
      error: null,
    });
    expect(events.map((e) => e.message)).toEqual([
      'Provider BambooHR is now the system of record (provisioning enabled)',
      'Provider BambooHR is no longer the system of record (provisioning disabled)',
    ]);
  });

  it.each(['application', 'identity_provider'])(
    'refuses it for a provider of template %s, naming provisioning, and changes nothing',
    async (template) => {
      const p = await h().provider(`not hr ${template}`, template);
      for (const provisioning of [true, false]) {
        const r = await patch(p.id, { provisioning });
        expect(r.status).toBe(400);
        expect(r.body.code).toBe('InvalidArgument');
        const [v, ...more] = violations(r.body);
        expect(more).toEqual([]);
        expect(v?.field).toBe('provisioning');
        expect(v?.description).toContain(ONLY_HRIS);
        expect(v?.description).toContain(template);
      }
      expect((await h().call('GET', `${BASE}/${p.id}`)).body.value.provisioning).toBeNull();
      expect(await configEvents()).toEqual([]);
    },
  );

  it.each([
    [{}, 'provisioning', 'is required'],
    [{ provisioning: 'yes' }, 'provisioning', 'boolean'],
    [{ provisioning: null }, 'provisioning', 'boolean'],
    [{ provisioning: true, name: 'renamed' }, 'name', 'unknown field'],
  ])('refuses the body %j naming %s', async (body, field, description) => {
    const p = await h().provider('HR', 'hris');
    const r = await patch(p.id, body);
    expect(r.status).toBe(400);
    expect(violations(r.body)).toEqual([{ field, description: expect.stringContaining(description) }]);
    const after = (await h().call('GET', `${BASE}/${p.id}`)).body.value;
    expect(after).toMatchObject({ name: 'HR', provisioning: null });
  });

  it('answers 400 naming body for a body that is not a JSON object', async () => {
    const p = await h().provider('HR', 'hris');
    const notJson = await h().call('PATCH', `${BASE}/${p.id}`, undefined, { raw: '{"provisioning": ' });
    expect(violations(notJson.body)[0]?.field).toBe('body');
    expect(violations((await patch(p.id, [true])).body)[0]?.field).toBe('body');
  });

  it("answers 404 in the service's error shape for an unknown provider, and for an action", async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const r = await patch(missing, { provisioning: true });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NotFound');
    expect(r.body.details).toContainEqual({
      '@type': RESOURCE_INFO_TYPE,
      resource_type: 'provider',
      resource: missing,
    });
    const p = await h().provider('HR', 'hris');
    expect((await patch(`${p.id}:icon`, { provisioning: true })).status).toBe(404);
  });
});

describe('create with provisioning', () => {
  const h = useEmulator();

  it('sets the flag on an hris provider and refuses it on other templates', async () => {
    const hr = await h().call('POST', BASE, { name: 'HR', custom_template: 'hris', provisioning: true });
    expect(hr.body.value.provisioning).toBe(true);
    const app = await h().call('POST', BASE, {
      name: 'App',
      custom_template: 'application',
      provisioning: true,
    });
    expect(app.status).toBe(400);
    expect(violations(app.body)).toEqual([
      { field: 'provisioning', description: expect.stringContaining(ONLY_HRIS) },
    ]);
  });
});
