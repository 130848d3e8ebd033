/**
 * Last-login enrichment over HTTP, as the spec describes it: with the feature flag on, the matching
 * property configured and `idp_app_id` on the application, each push writes `sso_last_login_at` to
 * the local users whose identities match an identity-provider user's property value (without case,
 * first match wins), read back from the graph. The activity is stored with the submission and
 * replayed by an incremental push; no audit data means no timestamps and nothing lost. CSV too.
 */
import { describe, expect, it } from 'vitest';
import { useEmulator, values, violations, type Harness } from '../private-test-helpers/harness.js';

const CONFIG = '/api/private/namespaces/integrations/configurations/idp_sso_user_matching_property';
const FLAGS = '/_emulator/feature_flags';
const AUDIT = '/_emulator/idp_audit_activity';
const APP_ID = '0oa1b2c3d4WIKI';

interface UserNode {
  name: string;
  properties: Record<string, unknown>;
}

function payload(users: { name: string; identities?: string[] }[], idpAppId: string | null = APP_ID) {
  return {
    applications: [
      {
        name: 'wiki',
        application_type: 'wiki',
        ...(idpAppId === null ? {} : { idp_app_id: idpAppId }),
        local_users: users,
        local_groups: [{ name: 'editors' }],
      },
    ],
    permissions: [],
    identity_to_permissions: [],
  };
}

async function enable(h: Harness, property = 'login'): Promise<void> {
  expect((await h.call('POST', FLAGS, { INTEG_OAA_SSO_LAST_LOGIN: true })).status).toBe(200);
  expect((await h.call('PUT', CONFIG, { value: property })).status).toBe(200);
}

async function audit(
  h: Harness,
  logins: { user: Record<string, string>; timestamp: string; idp_app_id?: string }[],
) {
  const res = await h.call('POST', AUDIT, { values: logins.map((l) => ({ idp_app_id: APP_ID, ...l })) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function lastLogins(h: Harness, dataSourceId: string): Promise<Record<string, unknown>> {
  const nodes = values<UserNode>(
    await h.call('GET', `/_emulator/graph/nodes?data_source_id=${dataSourceId}&type=OAA.wiki.User`),
  );
  return Object.fromEntries(nodes.map((n) => [n.name, n.properties.sso_last_login_at]));
}

describe('last-login enrichment', () => {
  const h = useEmulator();

  it('is off until the feature flag is set; the flags and the audit activity are readable', async () => {
    expect((await h().call('GET', FLAGS)).body.value).toEqual({ INTEG_OAA_SSO_LAST_LOGIN: false });
    await h().call('PUT', CONFIG, { value: 'login' });
    await audit(h(), [{ user: { login: 'ann@example.com' }, timestamp: '2026-11-01T09:00:00Z' }]);
    expect(values(await h().call('GET', AUDIT))).toEqual([
      { idp_app_id: APP_ID, user: { login: 'ann@example.com' }, timestamp: '2026-11-01T09:00:00Z' },
    ]);
    const t = await h().target();
    await h().push(t.base, payload([{ name: 'ann', identities: ['ann@example.com'] }]));
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({ ann: undefined });
  });

  it('writes the latest login to matching local users, without case, first identity that matches', async () => {
    await enable(h());
    await audit(h(), [
      { user: { login: 'Ann@Example.com', email: 'ann@corp.example' }, timestamp: '2026-11-01T09:00:00Z' },
      { user: { login: 'ann@example.com' }, timestamp: '2026-11-20T17:30:00Z' },
      { user: { login: 'bob-alt@example.com' }, timestamp: '2026-10-05T08:00:00Z' },
      { user: { login: 'bob@example.com' }, timestamp: '2026-11-10T08:00:00Z' },
      { user: { login: 'carl@example.com' }, timestamp: '2026-11-11T08:00:00Z', idp_app_id: 'another-app' },
    ]);
    const t = await h().target();
    const res = await h().push(
      t.base,
      payload([
        { name: 'ann', identities: ['ANN@EXAMPLE.COM'] },
        { name: 'bob', identities: ['nobody@example.com', 'bob-alt@example.com', 'bob@example.com'] },
        { name: 'carl', identities: ['carl@example.com'] },
        { name: 'dora' },
      ]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({
      ann: '2026-11-20T17:30:00Z',
      bob: '2026-10-05T08:00:00Z',
      carl: undefined,
      dora: undefined,
    });
  });

  it('joins on the configured property, custom attributes included', async () => {
    await enable(h(), 'employeeMail');
    await audit(h(), [
      { user: { login: 'a.smith', employeeMail: 'ann@example.com' }, timestamp: '2026-11-03T10:00:00Z' },
    ]);
    const t = await h().target();
    await h().push(
      t.base,
      payload([
        { name: 'ann', identities: ['ann@example.com'] },
        { name: 'a', identities: ['a.smith'] },
      ]),
    );
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({ ann: '2026-11-03T10:00:00Z', a: undefined });
  });

  it('changes only on a push after new audit data; an incremental push replays the stored activity', async () => {
    await enable(h());
    await audit(h(), [{ user: { login: 'ann@example.com' }, timestamp: '2026-11-01T09:00:00Z' }]);
    const t = await h().target();
    await h().push(t.base, payload([{ name: 'ann', identities: ['ann@example.com'] }]));
    // New audit data arrives: nothing changes until a push.
    await audit(h(), [
      { user: { login: 'ann@example.com' }, timestamp: '2026-11-15T12:00:00Z' },
      { user: { login: 'eve@example.com' }, timestamp: '2026-11-16T12:00:00Z' },
    ]);
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({ ann: '2026-11-01T09:00:00Z' });

    // An incremental push re-parses the stored submission with the activity stored with it.
    const inc = await h().push(t.base, {
      incremental_change: true,
      applications: [
        {
          name: 'wiki',
          application_type: 'wiki',
          local_users: [{ name: 'eve', identities: ['eve@example.com'], operation: 'add' }],
        },
      ],
    });
    expect(inc.status, JSON.stringify(inc.body)).toBe(200);
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({ ann: '2026-11-01T09:00:00Z', eve: undefined });

    // A full push looks the activity up again.
    await h().push(
      t.base,
      payload([
        { name: 'ann', identities: ['ann@example.com'] },
        { name: 'eve', identities: ['eve@example.com'] },
      ]),
    );
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({
      ann: '2026-11-15T12:00:00Z',
      eve: '2026-11-16T12:00:00Z',
    });
  });

  it('without audit data, a property or an idp_app_id, the push completes with every user and no timestamps', async () => {
    const t = await h().target();
    await h().call('POST', FLAGS, { INTEG_OAA_SSO_LAST_LOGIN: true });
    const users = [{ name: 'ann', identities: ['ann@example.com'] }, { name: 'bob' }];
    // No matching property configured yet.
    await audit(h(), [{ user: { login: 'ann@example.com' }, timestamp: '2026-11-01T09:00:00Z' }]);
    expect((await h().push(t.base, payload(users))).status).toBe(200);
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({ ann: undefined, bob: undefined });
    // Property set, but no idp_app_id on the application.
    await h().call('PUT', CONFIG, { value: 'login' });
    expect((await h().push(t.base, payload(users, null))).status).toBe(200);
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({ ann: undefined, bob: undefined });
    // No audit data for the application at all.
    expect((await h().call('DELETE', AUDIT)).body).toEqual({ deleted: 1 });
    const res = await h().push(t.base, payload(users));
    expect(res.status).toBe(200);
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({ ann: undefined, bob: undefined });
    const groups = values(
      await h().call('GET', `/_emulator/graph/nodes?data_source_id=${t.dataSourceId}&type=OAA.wiki.Group`),
    );
    expect(groups).toHaveLength(1);
  });

  it('enriches a multipart upload like a push', async () => {
    await enable(h());
    await audit(h(), [{ user: { login: 'ann@example.com' }, timestamp: '2026-11-04T06:00:00Z' }]);
    const t = await h().target();
    const json = Buffer.from(JSON.stringify(payload([{ name: 'ann', identities: ['ann@example.com'] }])));
    const half = Math.ceil(json.length / 2);
    const start = await h().call('POST', `${t.base}:parts`, { operation: 'start' });
    const uploadId = start.body.upload_id as string;
    for (const [seq, part] of [json.subarray(0, half), json.subarray(half)].entries()) {
      const res = await h().call('POST', `${t.base}:parts`, {
        operation: 'upload',
        upload_id: uploadId,
        sequence_number: seq + 1,
        data: part.toString('base64'),
      });
      expect(res.status).toBe(200);
    }
    const done = await h().call('POST', `${t.base}:parts`, {
      operation: 'complete',
      upload_id: uploadId,
      sequence_count: 2,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await lastLogins(h(), t.dataSourceId)).toEqual({ ann: '2026-11-04T06:00:00Z' });
  });

  it('takes idp_app_id as a CSV push form field', async () => {
    await enable(h());
    await audit(h(), [{ user: { login: 'ann@example.com' }, timestamp: '2026-11-02T07:00:00Z' }]);
    const p = await h().provider('Wiki CSV', 'application', {
      configuration_json: JSON.stringify({
        csv: {
          columns: { User: 'name', Email: 'identities' },
          application: { name: 'wiki', application_type: 'wiki' },
        },
      }),
    });
    const ds = await h().dataSource(p.id);
    const csv = 'User,Email\nann,ANN@example.com\nbob,bob@example.com\n';
    const res = await h().call('POST', `/api/v1/providers/custom/${p.id}/datasources/${ds.id}:push_csv`, {
      id: p.id,
      data_source_id: ds.id,
      csv_data: Buffer.from(csv).toString('base64'),
      idp_app_id: APP_ID,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await lastLogins(h(), ds.id)).toEqual({ ann: '2026-11-02T07:00:00Z', bob: undefined });
    const apps = values<UserNode>(
      await h().call('GET', `/_emulator/graph/nodes?data_source_id=${ds.id}&type=OAA.wiki.Application`),
    );
    expect(apps[0]?.properties.idp_app_id).toBe(APP_ID);
  });

  it('validates the controls, naming the field, and bounds the audit log', async () => {
    const flag = await h().call('POST', FLAGS, { INTEG_OAA_SSO_LAST_LOGIN: 'yes', OTHER_FLAG: true });
    expect(flag.status).toBe(400);
    expect(
      violations(flag.body)
        .map((v) => v.field)
        .sort(),
    ).toEqual(['INTEG_OAA_SSO_LAST_LOGIN', 'OTHER_FLAG']);
    const bad = await h().call('POST', AUDIT, {
      values: [
        { idp_app_id: '', user: { login: 'a' }, timestamp: '2026-11-01T09:00:00Z' },
        { idp_app_id: APP_ID, user: {}, timestamp: 'yesterday' },
        { idp_app_id: APP_ID, user: { login: 7 }, timestamp: '2026-11-01T09:00:00Z', extra: 1 },
      ],
    });
    expect(bad.status).toBe(400);
    expect(violations(bad.body).map((v) => v.field)).toEqual([
      'values[0].idp_app_id',
      'values[1].timestamp',
      'values[1].user',
      'values[2].extra',
      'values[2].user.login',
    ]);
    const tooMany = await h().call('POST', AUDIT, {
      values: Array.from({ length: 10_001 }, () => ({
        idp_app_id: APP_ID,
        user: { login: 'a' },
        timestamp: '2026-11-01T09:00:00Z',
      })),
    });
    expect(violations(tooMany.body)[0]).toEqual({
      field: 'values',
      description: 'at most 10000 logins per request',
    });
    expect(values(await h().call('GET', AUDIT))).toEqual([]);
    expect((await h().call('GET', `${AUDIT}?limit=100001`)).status).toBe(400);
  });
});
