import { describe, expect, it } from 'vitest';
import { names, samplePayload, useEmulator, values, violations } from '../private-test-helpers/harness.js';

const BASE = '/api/v1/providers/custom';

describe('data sources', () => {
  const h = useEmulator();

  it('creates a data source as PENDING, with names holding : ( ) and spaces', async () => {
    const p = await h().provider();
    const r = await h().call('POST', `${BASE}/${p.id}/datasources`, {
      id: p.id,
      name: 'acme (prod): us-east 1',
    });
    expect(r.status).toBe(200);
    expect(r.body.value).toMatchObject({ name: 'acme (prod): us-east 1', status: 'PENDING' });
    const got = await h().call('GET', `${BASE}/${p.id}/datasources/${r.body.value.id}`);
    expect(got.body.value).toMatchObject({
      id: r.body.value.id,
      name: 'acme (prod): us-east 1',
      status: 'PENDING',
    });
  });

  it('requires the provider id in the body, equal to the path', async () => {
    const p = await h().provider();
    const missing = await h().call('POST', `${BASE}/${p.id}/datasources`, { name: 'x' });
    expect(missing.status).toBe(400);
    expect(violations(missing.body).map((v) => v.field)).toContain('id');
    const other = await h().call('POST', `${BASE}/${p.id}/datasources`, {
      id: '00000000-0000-4000-8000-000000000000',
      name: 'x',
    });
    expect(other.status).toBe(400);
    expect(violations(other.body)[0]?.field).toBe('id');
  });

  it('keeps names unique per provider, not across providers', async () => {
    const a = await h().provider();
    const b = await h().provider();
    await h().dataSource(a.id, 'main');
    const dup = await h().call('POST', `${BASE}/${a.id}/datasources`, { id: a.id, name: 'main' });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe('InvalidArgument');
    expect(violations(dup.body)[0]).toEqual({
      field: 'name',
      description: 'Data source with the same name already exists',
    });
    expect((await h().call('POST', `${BASE}/${b.id}/datasources`, { id: b.id, name: 'main' })).status).toBe(
      200,
    );
  });

  it('answers 404 for an unknown provider or data source', async () => {
    const p = await h().provider();
    const unknownProvider = await h().call('GET', `${BASE}/00000000-0000-4000-8000-000000000000/datasources`);
    expect(unknownProvider.status).toBe(404);
    expect(unknownProvider.body.code).toBe('NotFound');
    const unknownDs = await h().call(
      'GET',
      `${BASE}/${p.id}/datasources/00000000-0000-4000-8000-000000000000`,
    );
    expect(unknownDs.status).toBe(404);
    expect(unknownDs.body.code).toBe('NotFound');
    const unknownAction = await h().call('POST', `${BASE}/${p.id}/datasources/x:frobnicate`, {});
    expect(unknownAction.status).toBe(404);
  });

  it('lists with a name filter, status filter, order and pages', async () => {
    const p = await h().provider();
    for (const n of ['b one', 'a two', 'c three']) await h().dataSource(p.id, n);
    const list = await h().call('GET', `${BASE}/${p.id}/datasources?order_by=name&page_size=2`);
    expect(names(list)).toEqual(['a two', 'b one']);
    expect(list.body.has_more).toBe(true);
    const next = await h().call(
      'GET',
      `${BASE}/${p.id}/datasources?order_by=name&page_size=2&page_token=${encodeURIComponent(list.body.next_page_token)}`,
    );
    expect(names(next)).toEqual(['c three']);
    expect(next.body.has_more).toBe(false);
    const filtered = await h().call('GET', `${BASE}/${p.id}/datasources?filter=name+eq+%22a+two%22`);
    expect(names(filtered)).toEqual(['a two']);
    const pending = await h().call('GET', `${BASE}/${p.id}/datasources?filter=status+eq+%22PENDING%22`);
    expect(pending.body.values).toHaveLength(3);
    const bad = await h().call('GET', `${BASE}/${p.id}/datasources?filter=name%2Beq%2B%22a%22`);
    expect(bad.status).toBe(400);
    expect(violations(bad.body)[0]?.field).toBe('filter');
  });

  it('reports SUCCESS after a parsed push and FAILED after a rejected one', async () => {
    const t = await h().target();
    expect((await h().push(t.base, samplePayload())).status).toBe(200);
    expect((await h().call('GET', t.base)).body.value.status).toBe('SUCCESS');
    expect((await h().push(t.base, { applications: [] })).status).toBe(400);
    expect((await h().call('GET', t.base)).body.value.status).toBe('FAILED');
    const listed = await h().call('GET', `${BASE}/${t.providerId}/datasources`);
    expect(listed.body.values[0].status).toBe('FAILED');
  });

  it('deletes a data source with its graph, and records register and remove events', async () => {
    const t = await h().target();
    await h().push(t.base, samplePayload());
    expect((await h().call('DELETE', t.base)).body).toEqual({});
    expect((await h().call('GET', t.base)).status).toBe(404);
    const stats = await h().call('GET', `/_emulator/graph/stats?data_source_id=${t.dataSourceId}`);
    expect(stats.body.nodes).toEqual({});
    const events = await h().call('GET', '/_emulator/events');
    const types = values<{ entity_id: string; event_type: string }>(events)
      .filter((e) => e.entity_id === t.dataSourceId)
      .map((e) => e.event_type);
    expect(types).toEqual(['DATASOURCE_REGISTERED', 'OAA_PUSH', 'DATASOURCE_PARSED', 'DATASOURCE_REMOVED']);
  });

  it('deleting a provider deletes its data sources', async () => {
    const t = await h().target();
    await h().push(t.base, samplePayload());
    expect((await h().call('DELETE', `${BASE}/${t.providerId}`)).status).toBe(200);
    expect((await h().call('GET', `${BASE}/${t.providerId}/datasources`)).status).toBe(404);
    const stats = await h().call('GET', `/_emulator/graph/stats?data_source_id=${t.dataSourceId}`);
    expect(stats.body.nodes).toEqual({});
  });
});
