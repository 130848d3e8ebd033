/**
 * The three "every field" payloads: one payload per template that uses every key and every kind of
 * value the vendor's Python SDK (oaaclient 1.1.15) can put into a payload, built here with the
 * package's public builders, without casts. They are committed as JSON in
 * `packages/core/fixtures/sdk-fields/` (read by the core, emulator and end-to-end tests);
 * `sdk-fields.test.ts` checks that these builders still produce exactly those files and says how to
 * write them again. Test-only; not exported from the package.
 */
import {
  ApplicationPayloadBuilder,
  HrisPayloadBuilder,
  IdentityProviderPayloadBuilder,
  type ApplicationPayload,
  type HrisPayload,
  type IdentityProviderPayload,
  type Owner,
  type Tag,
} from '../index.js';

/** The templates, named as the payloads' files are. */
export const SDK_FIELD_TEMPLATES = ['application', 'identity_provider', 'hris'] as const;
export type SdkFieldTemplate = (typeof SDK_FIELD_TEMPLATES)[number];

const owner = (external_id: string, owner_type: string, primary = false): Owner => ({
  external_id,
  owner_type,
  primary,
});
const tag = (key: string, value: string): Tag[] => [{ key, value }];
const o = 'o@example.com';

/**
 * An application with every entity kind and every optional key: owners on everything that takes
 * them (with each of the SDK's owner types and a custom identity provider's), nested groups and
 * roles, an access credential with grants of its own, three levels of resources with connections,
 * and grants of each identity type at application and at resource level.
 */
export function sdkFieldsApplication(): ApplicationPayload {
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
  app.addOwner(owner('owner2@example.com', 'azureaduser')); // kept once, as the SDK keeps one of each (id, type)
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

/**
 * An identity provider with a property of every kind, a user and a group with every optional key
 * (source identities, assumed roles, app assignments with their own properties), and an app.
 */
export function sdkFieldsIdentityProvider(): IdentityProviderPayload {
  const b = new IdentityProviderPayloadBuilder({ name: 'Max IdP', idp_type: 'maxidp' });
  b.defineProperty('domain', 'region', 'STRING')
    .defineProperty('user', 'level', 'NUMBER')
    .defineProperty('group', 'owner', 'STRING')
    .defineProperty('app', 'saml', 'BOOLEAN')
    .defineProperty('app_assignment', 'added_on', 'TIMESTAMP');
  b.setDomain({
    name: 'example.com',
    tags: [{ key: 'd_tag', value: 'dv' }],
    custom_properties: { region: 'US' },
  });
  b.addApp({
    id: 'app1',
    name: 'App One',
    description: 'an app',
    assumed_role_arns: [{ identity: 'arn:aws:iam::1:role/C' }],
    custom_properties: { saml: true },
    tags: [{ key: 'a_tag', value: 'av' }],
  });
  // A parent group may come after its child, as in the SDK.
  b.addGroup({
    name: 'g1',
    identity: 'id-g1',
    full_name: 'Group One',
    is_security_group: true,
    assumed_role_arns: [{ identity: 'arn:aws:iam::1:role/B' }],
    groups: [{ identity: 'id-g2' }],
    source_identity: { identity: 'g1@corp.example.com', provider_type: 'active_directory' },
    tags: [{ key: 'g_tag', value: 'gv' }],
    custom_properties: { owner: 'me' },
  });
  b.assignApp('group', 'id-g1', {
    id: 'asg2',
    name: 'Admin',
    app_id: 'app1',
    custom_properties: { added_on: '2024-01-01T00:00:00Z' },
  });
  b.addGroup({ name: 'g2', identity: 'id-g2' });
  b.addUser({
    name: 'u1',
    email: 'u1@example.com',
    identity: 'id-u1',
    full_name: 'User One',
    department: 'Eng',
    is_active: true,
    is_guest: false,
    manager_id: 'id-u2',
    groups: [{ identity: 'id-g1' }],
    assumed_role_arns: [{ identity: 'arn:aws:iam::1:role/A' }],
    source_identity: { identity: 'u1@corp.example.com', provider_type: 'google_workspace' },
    tags: [{ key: 'u_tag', value: 'uv' }],
    custom_properties: { level: 3 },
    identity_type: 'NONHUMAN',
  });
  b.assignApp('user', 'id-u1', {
    id: 'asg1',
    name: 'Member',
    app_id: 'app1',
    custom_properties: { added_on: '2024-01-01T00:00:00Z' },
  });
  b.addUser({ name: 'u2', identity: 'id-u2' });
  return b.build();
}

/**
 * An HRIS system with a property of every kind, a manager with only the required keys, an employee
 * with every optional key (each free-text field holds `<field>-value`), a department and a cost
 * center.
 */
export function sdkFieldsHris(): HrisPayload {
  const b = new HrisPayloadBuilder({
    name: 'Max HRIS',
    hris_type: 'maxhris',
    system: {
      id: 'Max HRIS',
      name: 'Max HRIS',
      url: 'https://hris.example.com',
      idp_providers: ['one_login', 'custom'],
    },
  });
  b.defineProperty('system', 'tier', 'STRING')
    .defineProperty('employee', 'badge', 'NUMBER')
    .defineProperty('group', 'cost', 'NUMBER');
  b.addGroup({ id: 'dept1', name: 'Department 1', group_type: 'Department', custom_properties: { cost: 5 } });
  b.addGroup({ id: 'cc1', name: 'Cost Center 1', group_type: 'Cost Center' });
  const person = (first_name: string, last_name: string) => ({ first_name, last_name });
  b.addEmployee({
    id: 'm1',
    name: 'Manager',
    employee_number: '100',
    ...person('Man', 'Ager'),
    employment_status: 'ACTIVE',
    is_active: true,
  });
  const value = (field: string) => `${field}-value`;
  b.addEmployee({
    id: 'e1',
    name: 'Employee',
    employee_number: '101',
    company: value('company'),
    ...person('Em', 'Ployee'),
    preferred_name: value('preferred_name'),
    display_full_name: value('display_full_name'),
    canonical_name: value('canonical_name'),
    username: value('username'),
    email: value('email'),
    idp_id: value('idp_id'),
    personal_email: value('personal_email'),
    home_location: value('home_location'),
    work_location: value('work_location'),
    employment_status: 'TERMINATED',
    start_date: '2020-01-01T00:00:00Z',
    termination_date: '2024-01-01T00:00:00Z',
    job_title: value('job_title'),
    employment_types: ['FULL_TIME', 'CONTRACTOR'],
    primary_time_zone: value('primary_time_zone'),
    custom_properties: { badge: 12 },
    is_active: false,
    groups: [{ id: 'dept1' }],
    managers: [{ id: 'm1' }],
    department: { id: 'dept1' },
    cost_center: { id: 'cc1' },
  });
  return b.build();
}

/** The payload of `template`, freshly built. */
export function sdkFieldsPayload(
  template: SdkFieldTemplate,
): ApplicationPayload | IdentityProviderPayload | HrisPayload {
  switch (template) {
    case 'application':
      return sdkFieldsApplication();
    case 'identity_provider':
      return sdkFieldsIdentityProvider();
    case 'hris':
      return sdkFieldsHris();
  }
}
