/**
 * Issue 10: the builders can build every field the vendor SDK 1.1.15 emits, without casts. The
 * application payload the SDK built (shared/fixtures/sdk-1.1.15) is built again here and compared.
 */
import { describe, expect, it } from 'vitest';
import type { Owner, Tag } from '../schemas/common.js';
import { sdkFixture } from '../test-support/fixtures.js';
import { normalisePayload } from '../test-support/normalise.js';
import { validate } from '../validate/index.js';
import { ApplicationPayloadBuilder } from './application-payload.js';

const owner = (external_id: string, owner_type: string, primary = false): Owner => ({
  external_id,
  owner_type,
  primary,
});
const tag = (key: string, value: string): Tag[] => [{ key, value }];
const o = 'o@example.com';

function buildMaxApp() {
  const b = new ApplicationPayloadBuilder();
  b.addPermission({
    name: 'read',
    permission_type: ['DataRead'],
    apply_to_sub_resources: true,
    resource_types: ['db'],
  });
  b.addPermission({
    name: 'write',
    permission_type: ['DataWrite', 'MetadataWrite'],
    apply_to_sub_resources: false,
    resource_types: ['table'],
  });
  const app = b.addApplication({
    name: 'max app',
    application_type: 'maxtype',
    description: 'desc',
    tags: tag('app_tag', 'v'),
    custom_properties: { version: '1.0' },
  });
  app.addOwner(owner('owner@example.com', 'oktauser', true));
  app.addOwner(owner('owner2@example.com', 'azureaduser'));
  app.addOwner(owner('owner2@example.com', 'azureaduser')); // the SDK keeps one of each (id, type)
  app
    .defineProperty('application', 'version', 'STRING')
    .defineProperty('local_user', 'user_num', 'NUMBER')
    .defineProperty('local_group', 'group_flag', 'BOOLEAN')
    .defineProperty('local_role', 'role_list', 'STRING_LIST')
    .defineProperty('role_assignment', 'approved_at', 'TIMESTAMP')
    .defineProperty('local_access_creds', 'scope', 'STRING')
    .defineResourceProperty('db', 'size', 'NUMBER')
    .defineResourceProperty('table', 'rows', 'NUMBER');

  app.addLocalGroup({
    name: 'grp1',
    identities: ['grp1@example.com'],
    created_at: '2024-01-01T00:00:00Z',
    tags: tag('g_tag', 'x'),
    custom_properties: { group_flag: true },
    owners: [owner(o, 'googleworkspaceuser')],
  });
  app.addLocalGroup({ name: 'grp2', identities: ['grp2@example.com'], groups: ['grp1'] });
  app.addLocalRole({
    name: 'role1',
    permissions: ['read', 'write'],
    tags: tag('r_tag', ''),
    custom_properties: { role_list: ['a', 'b'] },
    owners: [owner(o, 'activedirectoryuser')],
  });
  app.addLocalRole({ name: 'role2', permissions: ['read'], roles: ['role1'] });
  app.addLocalAccessCred({
    id: 'cred1',
    name: 'Cred One',
    is_active: true,
    created_at: '2024-01-01T00:00:00Z',
    expires_at: '2025-01-01T00:00:00Z',
    last_used_at: '2024-06-01T00:00:00Z',
    can_expire: false,
    owners: [owner(o, 'oktauser')],
    tags: tag('c_tag', 'cv'),
    custom_properties: { scope: 'all' },
  });
  app.addLocalUser({
    name: 'user1',
    email: 'user1@example.com',
    identities: ['user1@example.com', 'alt@example.com'],
    groups: ['grp1'],
    access_creds: ['cred1'],
    is_active: false,
    created_at: '2024-01-01T00:00:00Z',
    last_login_at: '2024-01-02T00:00:00Z',
    deactivated_at: '2024-01-03T00:00:00Z',
    password_last_changed_at: '2024-01-04T00:00:00Z',
    user_type: 'service_account',
    tags: tag('u_tag', 'val'),
    custom_properties: { user_num: 7 },
    owners: [owner(o, 'OAA.MyIdP.IDPUser', true)],
  });

  const db = app.addResource({
    id: 'db-1',
    name: 'db1',
    resource_type: 'db',
    description: 'database',
    connections: [{ id: 'arn:aws:iam::1:role/x', node_type: 'AwsIamRole' }],
    custom_properties: { size: 10 },
    tags: tag('db_tag', 'd'),
    owners: [owner(o, 'oktauser')],
  });
  db.addSubResource({
    id: 'tbl-1',
    name: 'tbl1',
    resource_type: 'table',
    description: 'a table',
    connections: [{ id: 'sa@x.iam.gserviceaccount.com', node_type: 'GoogleCloudServiceAccount' }],
    custom_properties: { rows: 5 },
    tags: tag('t_tag', 't'),
    owners: [owner(o, 'oktauser')],
  }).addSubResource({ id: 'col-1', name: 'col1', resource_type: 'column' });

  const application = 'max app';
  const user = { identity: 'user1', identityType: 'local_user', application } as const;
  b.grantPermission({ ...user, permission: 'read', applyToApplication: true });
  b.grantPermission({ ...user, permission: 'read', resources: ['db-1', 'db-1.tbl-1', 'db-1.tbl-1.col-1'] });
  b.grantRole({
    ...user,
    role: 'role1',
    resources: ['db-1'],
    customProperties: { approved_at: '2024-01-01T00:00:00Z' },
  });
  const group = { identity: 'grp1', identityType: 'local_group', application } as const;
  b.grantPermission({ ...group, permission: 'write', applyToApplication: true });
  b.grantRole({ ...group, role: 'role2', applyToApplication: true });
  const idp = { identity: 'idpuser@example.com', identityType: 'idp', application } as const;
  b.grantPermission({ ...idp, permission: 'read', resources: ['db-1.tbl-1'] });
  b.grantRole({ ...idp, role: 'role1', applyToApplication: true });
  const cred = { identity: 'cred1', identityType: 'local_access_creds', application } as const;
  b.grantPermission({ ...cred, permission: 'write', applyToApplication: true });
  b.grantRole({ ...cred, role: 'role2', resources: ['db-1.tbl-1'] });
  return b.build();
}

describe('building the SDK 1.1.15 application payload', () => {
  it('gives the same entities as the SDK', () => {
    expect(normalisePayload(buildMaxApp())).toEqual(normalisePayload(sdkFixture('application')));
  });
  it('gives a payload that validates', () => {
    expect(validate('application', buildMaxApp())).toEqual({ errors: [], warnings: [] });
  });
});
