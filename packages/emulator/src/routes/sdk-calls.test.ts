/**
 * The vendor Python SDK's (`oaaclient`) client calls that fall inside the spec's endpoints, sent the
 * way `OAAClient` sends them: its query parameters, its bodies, and its `api_get`, which follows
 * `has_more` with `page_token` and returns `values` (lists) or `value` (one record).
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { samplePayload, useEmulator, type Answer } from '../private-test-helpers/harness.js';

const BASE = '/api/v1/providers/custom';
/** The SDK's `DEFAULT_PAGE_SIZE`. */
const SDK_PAGE_SIZE = 250;
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 1),
]);

describe("the vendor SDK's client calls", () => {
  const h = useEmulator();

  /** `OAAClient.api_get`: every page of a list, or the `value` of one record. */
  const sdkGet = async (path: string, params: Record<string, string> = {}): Promise<any> => {
    const found: unknown[] = [];
    const query = new URLSearchParams(params); // urlencode: spaces as +, quotes as %22
    for (;;) {
      const r = await h().call('GET', `${path}${query.size > 0 ? `?${query.toString()}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      if ('values' in r.body) {
        found.push(...r.body.values);
        if (!r.body.has_more) return found;
        query.set('page_token', r.body.next_page_token);
      } else if ('value' in r.body) return r.body.value;
      else return r.body;
    }
  };
  const ok = (r: Answer): any => {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const byName = (name: string): Record<string, string> => ({ filter: `name eq "${name}"` });

  it('connection test, providers, icon, data sources, push and deletes', async () => {
    await sdkGet(`${BASE}/templates`); // _test_connection
    expect(await sdkGet(BASE, byName('Acme App'))).toEqual([]); // get_provider: none yet
    const provider = ok(await h().call('POST', BASE, { name: 'Acme App', custom_template: 'application' }))
      .value as { id: string };
    ok(await h().call('POST', `${BASE}/${provider.id}:icon`, { icon_base64: PNG.toString('base64') }));
    expect(await sdkGet(`${BASE}/${provider.id}`)).toMatchObject({ id: provider.id, name: 'Acme App' });
    expect(await sdkGet(BASE, byName('Acme App'))).toHaveLength(1);
    expect(await sdkGet(BASE, { page_size: String(SDK_PAGE_SIZE) })).toHaveLength(1); // get_provider_list

    // push_metadata: finds the data source by name, creates it with { name, id }, pushes gzip + base64.
    const dsPath = `${BASE}/${provider.id}/datasources`;
    expect(await sdkGet(dsPath, byName('acme (prod)'))).toEqual([]);
    ok(await h().call('POST', dsPath, { name: 'acme (prod)', id: provider.id }));
    const [ds] = (await sdkGet(dsPath, byName('acme (prod)'))) as { id: string }[];
    const pushed = ok(
      await h().call('POST', `${dsPath}/${ds!.id}:push`, {
        id: provider.id,
        data_source_id: ds!.id,
        json_data: gzipSync(JSON.stringify(samplePayload())).toString('base64'),
        compression_type: 'GZIP',
      }),
    );
    expect(pushed).toHaveProperty('warnings');
    expect(await sdkGet(dsPath, { page_size: String(SDK_PAGE_SIZE) })).toHaveLength(1); // get_data_sources

    expect(ok(await h().call('DELETE', `${dsPath}/${ds!.id}`))).toEqual({}); // delete_data_source
    expect(ok(await h().call('DELETE', `${BASE}/${provider.id}`))).toEqual({}); // delete_provider
  });

  it('update_provisioning_status, and the error fields the SDK reads', async () => {
    const hr = ok(await h().call('POST', BASE, { name: 'HR', custom_template: 'hris' })).value as {
      id: string;
    };
    ok(await h().call('PATCH', `${BASE}/${hr.id}`, { provisioning: true }));
    expect((await sdkGet(`${BASE}/${hr.id}`)).provisioning).toBe(true);

    // get_provider_by_id answers None on a 404; other errors become OAAResponseError from these fields.
    const missing = await h().call('GET', `${BASE}/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    const refused = await h().call('PATCH', `${BASE}/${hr.id}`, { provisioning: 'on' });
    for (const error of [missing, refused]) {
      expect(error.body).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
        timestamp: expect.any(String),
        request_id: expect.any(String),
        details: expect.any(Array),
      });
    }
  });
});
