import { describe, expect, it } from 'vitest';
import { names, useEmulator, userFacing, violations } from '../private-test-helpers/harness.js';

const BASE = '/api/v1/providers/custom';

describe('providers', () => {
  const h = useEmulator();

  it('lists the three templates', async () => {
    const r = await h().call('GET', `${BASE}/templates`);
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['application', 'identity_provider', 'hris']);
  });

  it('creates a provider as ENABLED with the empty schema definition and empty type lists', async () => {
    const r = await h().call('POST', BASE, { name: 'Acme App', custom_template: 'application' });
    expect(r.status).toBe(200);
    const p = r.body.value;
    expect(p).toMatchObject({
      name: 'Acme App',
      custom_template: 'application',
      state: 'ENABLED',
      application_types: [],
      idp_types: [],
    });
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Buffer.from(p.schema_definition_json, 'base64').toString()).toBe('{}');
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    const got = await h().call('GET', `${BASE}/${p.id}`);
    expect(got.body.value).toEqual(p);
  });

  it('rejects a second provider with the same name, naming the field', async () => {
    await h().provider('Same');
    const r = await h().call('POST', BASE, { name: 'Same', custom_template: 'hris' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    expect(violations(r.body)).toEqual([
      { field: 'name', description: 'Provider with the same name already exists' },
    ]);
    expect(userFacing(r.body)?.reason).toBe('INVALID_ARGUMENTS');
    expect(r.body.request_id).toBe(r.headers.get('x-request-id'));
    expect(Date.parse(r.body.timestamp)).not.toBeNaN();
  });

  it.each([
    [{ name: 'x' }, 'custom_template'],
    [{ name: 'x', custom_template: 'database' }, 'custom_template'],
    [{ custom_template: 'application' }, 'name'],
    [{ name: 'bad/name', custom_template: 'application' }, 'name'],
    [
      { name: 'x', custom_template: 'hris', external_lifecycle_management_type: 'SCIM' },
      'external_lifecycle_management_type',
    ],
    [
      { name: 'x', custom_template: 'application', external_lifecycle_management_type: 'FTP' },
      'external_lifecycle_management_type',
    ],
    [
      { name: 'x', custom_template: 'application', configuration_json: '{"csv": {"columns": {}}}' },
      'configuration_json',
    ],
  ])('rejects the create body %j naming %s', async (body, field) => {
    const r = await h().call('POST', BASE, body);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    expect(violations(r.body).map((v) => v.field)).toContain(field);
  });

  it('accepts external_lifecycle_management_type for an application provider', async () => {
    const r = await h().call('POST', BASE, {
      name: 'scim app',
      custom_template: 'application',
      external_lifecycle_management_type: 'SCIM',
    });
    expect(r.status).toBe(200);
    expect(r.body.value.external_lifecycle_management_type).toBe('SCIM');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const r = await h().call('POST', BASE, undefined, { raw: '{"name": ' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    expect(violations(r.body)[0]?.field).toBe('body');
  });

  it('answers 404 for an unknown provider and after delete', async () => {
    const missing = await h().call('GET', `${BASE}/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NotFound');
    expect(userFacing(missing.body)?.reason).toBe('NOT_FOUND');
    const p = await h().provider();
    expect((await h().call('DELETE', `${BASE}/${p.id}`)).body).toEqual({});
    expect((await h().call('GET', `${BASE}/${p.id}`)).status).toBe(404);
    expect((await h().call('DELETE', `${BASE}/${p.id}`)).status).toBe(404);
  });

  describe('list', () => {
    it('filters by name with spaces encoded as +, and by state, combined with and', async () => {
      await h().provider('My App');
      await h().provider('My App 2');
      const byName = await h().call('GET', `${BASE}?filter=name+eq+%22My+App%22`);
      expect(byName.status).toBe(200);
      expect(names(byName)).toEqual(['My App']);
      expect(byName.body.has_more).toBe(false);
      const both = await h().call(
        'GET',
        `${BASE}?filter=${encodeURIComponent('name eq "My App 2" and state eq "ENABLED"')}`,
      );
      expect(names(both)).toEqual(['My App 2']);
      const none = await h().call('GET', `${BASE}?filter=state+eq+%22DELETING%22`);
      expect(none.body.values).toEqual([]);
    });

    it('finds names holding quotes and backslashes through escapes', async () => {
      await h().provider('say "hi"');
      const r = await h().call('GET', `${BASE}?filter=${encodeURIComponent('name eq "say \\"hi\\""')}`);
      expect(names(r)).toEqual(['say "hi"']);
    });

    it("answers the spec's error when spaces arrive as %2B", async () => {
      await h().provider('My App');
      const r = await h().call('GET', `${BASE}?filter=name%2Beq%2B%22My%2BApp%22`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('InvalidArgument');
      const [v] = violations(r.body);
      expect(v?.field).toBe('filter');
      expect(v?.description).toContain('%2B');
    });

    it.each([
      'name eq x',
      'name equals "x"',
      'colour eq "red"',
      'name eq "x" or state eq "y"',
      'name eq "unterminated',
    ])('rejects the filter %j naming filter', async (filter) => {
      const r = await h().call('GET', `${BASE}?filter=${encodeURIComponent(filter)}`);
      expect(r.status).toBe(400);
      expect(violations(r.body)[0]?.field).toBe('filter');
    });

    it('orders by name and state, ascending or descending', async () => {
      for (const n of ['b', 'c', 'a']) await h().provider(n);
      const asc = await h().call('GET', `${BASE}?order_by=name`);
      expect(names(asc)).toEqual(['a', 'b', 'c']);
      const desc = await h().call('GET', `${BASE}?order_by=name+desc`);
      expect(names(desc)).toEqual(['c', 'b', 'a']);
      const byState = await h().call('GET', `${BASE}?order_by=state,name`);
      expect(names(byState)).toEqual(['a', 'b', 'c']);
      const bad = await h().call('GET', `${BASE}?order_by=colour`);
      expect(bad.status).toBe(400);
      expect(violations(bad.body)[0]?.field).toBe('order_by');
    });

    it('pages with page_size and page_token until has_more is false', async () => {
      for (let i = 0; i < 5; i++) await h().provider(`p${i}`);
      const seen: string[] = [];
      let token = '';
      let pages = 0;
      for (;;) {
        const r = await h().call(
          'GET',
          `${BASE}?order_by=name&page_size=2${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
        );
        expect(r.status).toBe(200);
        seen.push(...names(r));
        pages++;
        if (!r.body.has_more) break;
        token = r.body.next_page_token;
      }
      expect(seen).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
      expect(pages).toBe(3);
    });

    it('rejects a bad page_size and a foreign page_token', async () => {
      expect(violations((await h().call('GET', `${BASE}?page_size=0`)).body)[0]?.field).toBe('page_size');
      expect(violations((await h().call('GET', `${BASE}?page_size=abc`)).body)[0]?.field).toBe('page_size');
      expect(violations((await h().call('GET', `${BASE}?page_token=garbage`)).body)[0]?.field).toBe(
        'page_token',
      );
      for (let i = 0; i < 3; i++) await h().provider(`q${i}`);
      const first = await h().call('GET', `${BASE}?page_size=1`);
      const other = await h().call(
        'GET',
        `${BASE}?page_size=1&order_by=name&page_token=${encodeURIComponent(first.body.next_page_token)}`,
      );
      expect(other.status).toBe(400);
      expect(violations(other.body)[0]?.field).toBe('page_token');
    });
  });
});
