/**
 * Every key and enum value the vendor SDK 1.1.15 emits that @oaakit/core used to reject: the keys it
 * sends on application and identity_provider payloads (owners, ids, nested roles, user and identity
 * types, assignment properties, group source identities) and its enum values (any connection node
 * type, grants to access credentials). Each test passes what the SDK emits; where a rule stays
 * stricter than the SDK, a second test shows the error.
 */
import { describe, expect, it } from 'vitest';
import { expectOnly } from '../private-test-helpers/fixtures.js';
import { sdkApplication, sdkIdentityProvider } from '../private-test-helpers/sdk-payloads.js';
import { validate } from './index.js';

const owner = (type = 'oktauser', primary = false) => ({
  external_id: 'owner@example.com',
  owner_type: type,
  primary,
});
const app0 = (p: Record<string, any>) => p.applications[0];
const errorsOf = (p: Record<string, any>) => validate('application', p).errors;

describe('keys the SDK emits on application payloads', () => {
  it('applications[].owners', () => {
    const p = sdkApplication();
    app0(p).owners = [owner('oktauser', true), owner('OAA.MyIdP.IDPUser')];
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_users[].email', () => {
    const p = sdkApplication();
    app0(p).local_users[0].email = 'alice@example.com';
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_users[].user_type human and service_account', () => {
    const p = sdkApplication();
    app0(p).local_users[0].user_type = 'human';
    app0(p).local_users.push({ name: 'ci-bot', user_type: 'service_account' });
    expect(errorsOf(p)).toEqual([]);
  });
  it('user_type stays an enum: a value the SDK does not define is an error', () => {
    const p = sdkApplication();
    app0(p).local_users[0].user_type = 'robot';
    expectOnly(errorsOf(p), 'applications[0].local_users[0].user_type', /one of: human, service_account/);
  });
  it('local_users[].owners', () => {
    const p = sdkApplication();
    app0(p).local_users[0].owners = [owner()];
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_groups[].id, by which members name the group', () => {
    const p = sdkApplication();
    app0(p).local_groups = [{ name: 'admins', id: 'g-1' }];
    app0(p).local_users[0].groups = ['g-1'];
    p.identity_to_permissions = [
      {
        identity: 'g-1',
        identity_type: 'local_group',
        application_permissions: [{ application: 'app', permission: 'read', apply_to_application: true }],
      },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_groups[].owners', () => {
    const p = sdkApplication();
    app0(p).local_groups = [{ name: 'admins', owners: [owner('googleworkspaceuser')] }];
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_roles[].id, by which assignments name the role', () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'reader', id: 'r-1', permissions: ['read'] }];
    p.identity_to_permissions = [
      {
        identity: 'alice',
        identity_type: 'local_user',
        role_assignments: [{ application: 'app', role: 'r-1', apply_to_application: true }],
      },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_roles[].roles: nested role ids', () => {
    const p = sdkApplication();
    app0(p).local_roles = [
      { name: 'reader', id: 'r-1', permissions: ['read'] },
      { name: 'editor', id: 'r-2', permissions: ['read'], roles: ['r-1'] },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_roles[].owners', () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'reader', permissions: ['read'], owners: [owner('activedirectoryuser')] }];
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_access_creds[].id, which the SDK always sends', () => {
    const p = sdkApplication();
    app0(p).local_access_creds = [{ id: 'key-1', name: 'deploy key', is_active: true }];
    app0(p).local_users[0].access_creds = ['key-1'];
    expect(errorsOf(p)).toEqual([]);
  });
  it('local_access_creds[].owners', () => {
    const p = sdkApplication();
    app0(p).local_access_creds = [{ id: 'key-1', name: 'deploy key', is_active: true, owners: [owner()] }];
    expect(errorsOf(p)).toEqual([]);
  });
  it('resources[].owners', () => {
    const p = sdkApplication();
    app0(p).resources = [{ id: 'db-1', name: 'db1', resource_type: 'db', owners: [owner()] }];
    expect(errorsOf(p)).toEqual([]);
  });
  it('sub_resources[].owners', () => {
    const p = sdkApplication();
    app0(p).resources = [
      {
        id: 'db-1',
        name: 'db1',
        resource_type: 'db',
        sub_resources: [
          { id: 't-1', name: 't1', resource_type: 'table', owners: [owner('azureaduser', true)] },
        ],
      },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('owners stay strict: an unknown owner key is an error', () => {
    const p = sdkApplication();
    app0(p).owners = [{ ...owner(), email: 'x@example.com' }];
    expectOnly(errorsOf(p), 'applications[0].owners[0].email', /is not an allowed field here/);
  });
});

describe('keys the SDK emits on identity_provider payloads', () => {
  const idpErrors = (p: Record<string, any>) => validate('identity_provider', p).errors;
  it('custom_property_definition.app_assignment_properties, always sent (even empty)', () => {
    const p = sdkIdentityProvider();
    expect(idpErrors(p)).toEqual([]);
    p.custom_property_definition.app_assignment_properties = { added_on: 'TIMESTAMP' };
    p.apps = [
      { id: 'a1', name: 'App', description: '', assumed_role_arns: [], custom_properties: {}, tags: [] },
    ];
    p.users[0].app_assignments = [
      { id: 'as-1', name: 'Member', app_id: 'a1', custom_properties: { added_on: '2024-01-01T00:00:00Z' } },
    ];
    expect(idpErrors(p)).toEqual([]);
  });
  it('assignment properties are checked against their declared type', () => {
    const p = sdkIdentityProvider();
    p.custom_property_definition.app_assignment_properties = { added_on: 'TIMESTAMP' };
    p.apps = [{ id: 'a1', name: 'App' }];
    p.users[0].app_assignments = [{ id: 'as-1', app_id: 'a1', custom_properties: { added_on: 'yesterday' } }];
    expectOnly(
      idpErrors(p),
      'users[0].app_assignments[0].custom_properties.added_on',
      /declared as TIMESTAMP/,
    );
  });
  it('users[].identity_type HUMAN and NONHUMAN', () => {
    const p = sdkIdentityProvider();
    p.users[0].identity_type = 'HUMAN';
    p.users.push({ name: 'bot', identity: 'bot', identity_type: 'NONHUMAN' });
    expect(idpErrors(p)).toEqual([]);
  });
  it('identity_type stays an enum: another value is an error', () => {
    const p = sdkIdentityProvider();
    p.users[0].identity_type = 'SERVICE';
    expectOnly(idpErrors(p), 'users[0].identity_type', /one of: HUMAN, NONHUMAN/);
  });
  it('groups[].source_identity', () => {
    const p = sdkIdentityProvider();
    p.groups = [
      {
        name: 'eng',
        identity: 'g-eng',
        source_identity: { identity: 'eng@corp.example.com', provider_type: 'active_directory' },
      },
    ];
    expect(idpErrors(p)).toEqual([]);
  });
});

describe('enum values the SDK emits', () => {
  it('connections[].node_type is any non-empty node type', () => {
    const p = sdkApplication();
    app0(p).resources = [
      {
        name: 'db1',
        resource_type: 'db',
        connections: [
          { id: 'sa@x.iam.gserviceaccount.com', node_type: 'GoogleCloudServiceAccount' },
          { id: 'arn:aws:iam::1:role/x', node_type: 'AwsIamRole' },
        ],
      },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('an empty node_type names nothing: an error', () => {
    const p = sdkApplication();
    app0(p).resources = [{ name: 'db1', resource_type: 'db', connections: [{ id: 'x', node_type: '' }] }];
    expectOnly(
      errorsOf(p),
      'applications[0].resources[0].connections[0].node_type',
      /must name the connected node type/,
    );
  });
  it('identity_type local_access_creds grants to an access credential', () => {
    const p = sdkApplication();
    app0(p).local_access_creds = [{ id: 'key-1', name: 'deploy key', is_active: true }];
    p.identity_to_permissions = [
      {
        identity: 'key-1',
        identity_type: 'local_access_creds',
        application_permissions: [{ application: 'app', permission: 'read', apply_to_application: true }],
      },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('the access credential a grant names must exist in the application', () => {
    const p = sdkApplication();
    p.identity_to_permissions = [
      {
        identity: 'key-9',
        identity_type: 'local_access_creds',
        application_permissions: [{ application: 'app', permission: 'read', apply_to_application: true }],
      },
    ];
    expectOnly(
      errorsOf(p),
      'identity_to_permissions[0].identity',
      /local access credential "key-9" does not exist in application "app"/,
    );
  });
  it('local_role, which the SDK never sends, is not an identity type', () => {
    const p = sdkApplication();
    p.identity_to_permissions = [{ identity: 'reader', identity_type: 'local_role' }];
    expectOnly(
      errorsOf(p),
      'identity_to_permissions[0].identity_type',
      /one of: local_user, local_group, idp, local_access_creds/,
    );
  });
});
