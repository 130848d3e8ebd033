import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { names, useEmulator, values, violations, type Harness } from '../private-test-helpers/harness.js';

const APP_MAPPING = {
  csv: {
    columns: {
      User: 'name',
      Email: 'identities',
      Groups: 'groups',
      Role: 'roles',
      Active: 'is_active',
      Dept: 'custom_properties.department',
      Since: 'created_at',
    },
    application: { name: 'Wiki', application_type: 'wiki' },
    roles: { editor: ['edit', 'view'] },
    permissions: { edit: ['DataWrite'], view: ['DataRead'] },
    list_separator: '|',
    true_values: ['yes'],
    false_values: ['no'],
  },
};

const HRIS_MAPPING = {
  csv: {
    columns: {
      ID: 'id',
      First: 'first_name',
      Last: 'last_name',
      Number: 'employee_number',
      Status: 'employment_status',
      Active: 'is_active',
      Manager: 'managers',
      Dept: 'department',
    },
    hris: { name: 'hr', hris_type: 'hrcsv', system: { id: 'hr1', name: 'HR' } },
  },
};

function csvBody(
  t: { providerId: string; dataSourceId: string },
  text: string,
  extra: Record<string, unknown> = {},
) {
  return {
    id: t.providerId,
    data_source_id: t.dataSourceId,
    csv_data: Buffer.from(text).toString('base64'),
    ...extra,
  };
}

async function pushCsv(
  h: Harness,
  t: { providerId: string; dataSourceId: string; base: string },
  text: string,
  extra: Record<string, unknown> = {},
) {
  return h.call('POST', `${t.base}:push_csv`, csvBody(t, text, extra));
}

describe('CSV push', () => {
  const h = useEmulator();

  it('builds an application payload from rows, merging rows of one user', async () => {
    const t = await h().target('application', { configuration_json: JSON.stringify(APP_MAPPING) });
    const csv = [
      'User,Email,Groups,Role,Active,Dept,Since',
      'ann,ann@example.com,wiki-admins|staff,editor,yes,eng,2024-01-01',
      '"Doe, John",john@example.com,staff,,no,"sales ""east""",2024-02-01T10:00:00Z',
      'ann,,readers,,,,',
    ].join('\r\n');
    const r = await pushCsv(h(), t, csv);
    expect(r.status).toBe(200);
    const users = await h().call(
      'GET',
      `/_emulator/graph/nodes?data_source_id=${t.dataSourceId}&type=OAA.wiki.User`,
    );
    expect(names(users)).toEqual(['ann', 'Doe, John']);
    const nodes = values<{ properties: Record<string, unknown> }>(users);
    expect(nodes[0]!.properties).toMatchObject({
      is_active: true,
      customprop_department: 'eng',
      created_at: '2024-01-01T00:00:00Z',
    });
    expect(nodes[1]!.properties).toMatchObject({ is_active: false, customprop_department: 'sales "east"' });
    const stats = (await h().call('GET', `/_emulator/graph/stats?data_source_id=${t.dataSourceId}`)).body;
    expect(stats.nodes['OAA.wiki.Group']).toBe(3);
    expect(stats.nodes['OAA.wiki.Permission']).toBe(2);
    expect(stats.edges.HAS_ROLE).toBe(1);
  });

  it('accepts gzip CSV and the simple form with csv_data only', async () => {
    const t = await h().target('application', { configuration_json: JSON.stringify(APP_MAPPING) });
    const csv = 'User,Email,Groups,Role,Active,Dept,Since\nann,,,,yes,,\n';
    expect(
      (
        await h().call('POST', `${t.base}:push_csv`, {
          csv_data: gzipSync(csv).toString('base64'),
          compression_type: 'GZIP',
        })
      ).status,
    ).toBe(200);
  });

  it('builds an hris payload', async () => {
    const t = await h().target('hris', { configuration_json: JSON.stringify(HRIS_MAPPING) });
    const csv =
      'ID,First,Last,Number,Status,Active,Manager,Dept\ne1,Ann,A,1,ACTIVE,true,,sales\ne2,Ben,B,2,ACTIVE,false,e1,sales\n';
    const r = await pushCsv(h(), t, csv);
    expect(r.status).toBe(200);
    const stats = (await h().call('GET', `/_emulator/graph/stats?data_source_id=${t.dataSourceId}`)).body;
    expect(stats.nodes).toMatchObject({
      'OAA.hrcsv.HRISEmployee': 2,
      'OAA.hrcsv.HRISGroup': 1,
      'OAA.hrcsv.HRISSystem': 1,
    });
    expect(stats.edges).toMatchObject({ MANAGED_BY: 1, DEPARTMENT: 2 });
  });

  it.each([
    ['a bad boolean', 'ann,,,,maybe,,', 'line 2, column "Active": expected one of yes,no, found "maybe"'],
    ['a bad timestamp', 'ann,,,,,,yesterday', 'line 2, column "Since": expected an RFC 3339 timestamp'],
    ['an empty user name', ',,,,yes,,', 'line 2, column "User": a value is required'],
    ['a short row', 'ann,x', 'line 2: expected 7 fields like the header, found 2'],
    ['a broken quote', 'ann,"x,,,,,', 'line 2: a quoted field is not closed'],
  ])('rejects %s naming the line and column', async (_what, row, description) => {
    const t = await h().target('application', { configuration_json: JSON.stringify(APP_MAPPING) });
    const r = await pushCsv(h(), t, `User,Email,Groups,Role,Active,Dept,Since\n${row}\n`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    expect(violations(r.body)).toContainEqual({
      field: 'csv_data',
      description: expect.stringContaining(description),
    });
    expect((await h().call('GET', t.base)).body.value.status).toBe('FAILED');
  });

  it('reads a BOOLEAN custom property with the configured words, and names a cell that is neither', async () => {
    const mapping = {
      csv: {
        ...APP_MAPPING.csv,
        columns: { User: 'name', Admin: 'custom_properties.admin' },
        property_types: { admin: 'BOOLEAN' },
      },
    };
    const t = await h().target('application', { configuration_json: JSON.stringify(mapping) });
    expect((await pushCsv(h(), t, 'User,Admin\nann,yes\nben,no\n')).status).toBe(200);
    const r = await pushCsv(h(), t, 'User,Admin\nann,yes\nben,maybe\n');
    expect(r.status).toBe(400);
    expect(violations(r.body)).toContainEqual({
      field: 'csv_data',
      description: expect.stringContaining('line 3, column "Admin": expected one of yes,no, found "maybe"'),
    });
  });

  it('names a mapped column missing from the header', async () => {
    const t = await h().target('application', { configuration_json: JSON.stringify(APP_MAPPING) });
    const r = await pushCsv(h(), t, 'User,Email\nann,a@x\n');
    expect(r.status).toBe(400);
    expect(violations(r.body)).toContainEqual({
      field: 'csv_data',
      description: 'line 1: column "Groups" of the provider\'s mapping is missing from the header',
    });
  });

  it('begins a warning with its text and names the CSV line after it', async () => {
    const t = await h().target('application', { configuration_json: JSON.stringify(APP_MAPPING) });
    const csv = 'User,Email,Groups,Role,Active,Dept,Since\nann,ann@example.com,,,yes,,\n';
    const r = await pushCsv(h(), t, csv);
    expect(r.status).toBe(200);
    const [message] = (r.body.warnings as { message: string }[]).map((w) => w.message);
    expect(message).toMatch(/^Cannot find identity by names "ann@example\.com"/);
    expect(message).toMatch(/\(at csv_data line 2, applications\[0\]\.local_users\[0\]\.identities\[0\]\)$/);
  });

  it('points payload validation errors at the CSV line', async () => {
    const t = await h().target('hris', { configuration_json: JSON.stringify(HRIS_MAPPING) });
    const r = await pushCsv(
      h(),
      t,
      'ID,First,Last,Number,Status,Active,Manager,Dept\ne1,Ann,A,1,ACTIVE,,,\n',
    );
    expect(r.status).toBe(400);
    expect(violations(r.body)).toContainEqual({
      field: 'csv_data',
      description: expect.stringMatching(/^line 2: employees\[0\]\.is_active: /),
    });
  });

  it('refuses a provider without a CSV mapping, and an identity_provider provider', async () => {
    const plain = await h().target('application');
    const r = await pushCsv(h(), plain, 'a\n1\n');
    expect(r.status).toBe(400);
    expect(violations(r.body)[0]).toEqual({
      field: 'csv_data',
      description: expect.stringContaining('no CSV column mapping'),
    });
    const idp = await h().target('identity_provider');
    expect(violations((await pushCsv(h(), idp, 'a\n1\n')).body)[0]?.description).toContain(
      'not identity_provider',
    );
  });

  it('rejects csv_data that is not base64 or not UTF-8, and ids other than the path', async () => {
    const t = await h().target('application', { configuration_json: JSON.stringify(APP_MAPPING) });
    const notBase64 = await h().call('POST', `${t.base}:push_csv`, { csv_data: 'User,Email!' });
    expect(violations(notBase64.body)[0]?.field).toBe('csv_data');
    const latin1 = await h().call('POST', `${t.base}:push_csv`, {
      csv_data: Buffer.from([0x55, 0xe9, 0x0a]).toString('base64'),
    });
    expect(violations(latin1.body)[0]?.description).toContain('UTF-8');
    const wrongId = await h().call('POST', `${t.base}:push_csv`, { id: 'other', csv_data: 'YQ==' });
    expect(violations(wrongId.body)[0]?.field).toBe('id');
  });
});
