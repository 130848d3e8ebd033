/**
 * References and identities: local users, groups, roles and access credentials are known by the `id`
 * the vendor SDK 1.1.15 sends, and which references must name something that exists. Each test
 * passes what the SDK emits; where a rule stays stricter, a second test shows the error (the
 * decisions are in packages/core/README.md).
 */
import { describe, expect, it } from 'vitest';
import { expectOnly } from '../private-test-helpers/fixtures.js';
import { sdkApplication, sdkHris } from '../private-test-helpers/sdk-payloads.js';
import { validate } from './index.js';

const app0 = (p: Record<string, any>) => p.applications[0];
const errorsOf = (p: Record<string, any>) => validate('application', p).errors;
const readGrant = (identity: string, identity_type = 'local_user') => ({
  identity,
  identity_type,
  application_permissions: [{ application: 'app', permission: 'read', apply_to_application: true }],
});

describe('references and identities', () => {
  it('local users are known by id: grants name them by it', () => {
    const p = sdkApplication();
    app0(p).local_users = [
      { name: 'user1', id: '1235' },
      { name: 'user2', id: '1236' },
    ];
    p.identity_to_permissions = [readGrant('1235'), readGrant('1236')];
    expect(errorsOf(p)).toEqual([]);
  });
  it('two users with one name and different ids are two users', () => {
    const p = sdkApplication();
    app0(p).local_users = [
      { name: 'Bob', id: 'u-1' },
      { name: 'Bob', id: 'u-2' },
    ];
    p.identity_to_permissions = [readGrant('u-1'), readGrant('u-2')];
    expect(errorsOf(p)).toEqual([]);
  });
  it('a repeated id is a duplicate, reported at the id', () => {
    const p = sdkApplication();
    app0(p).local_users = [
      { name: 'Bob', id: 'u-1' },
      { name: 'Rob', id: 'U-1' },
    ];
    expectOnly(
      errorsOf(p),
      'applications[0].local_users[1].id',
      /duplicate local user "U-1".*first is at index 0/,
    );
  });
  it('a grant to an id no user has is an error', () => {
    const p = sdkApplication();
    app0(p).local_users = [{ name: 'user1', id: '1235' }];
    p.identity_to_permissions = [readGrant('1299')];
    expectOnly(
      errorsOf(p),
      'identity_to_permissions[0].identity',
      /local user "1299" does not exist in application "app"/,
    );
  });
  it('groups, roles and access credentials are known by id', () => {
    const p = sdkApplication();
    app0(p).local_groups = [
      { name: 'group0', id: 'g0' },
      { name: 'group1', id: 'g1', groups: ['g0'] },
    ];
    app0(p).local_roles = [{ name: 'role0', id: 'r0', permissions: ['read'] }];
    app0(p).local_access_creds = [{ id: 'c0', name: 'cred0', is_active: true }];
    app0(p).local_users = [{ name: 'user0', id: 'u0', groups: ['g1'], access_creds: ['c0'] }];
    p.identity_to_permissions = [
      {
        identity: 'g1',
        identity_type: 'local_group',
        role_assignments: [{ application: 'app', role: 'r0', apply_to_application: true }],
      },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('a user listing an access credential the application lacks is an error', () => {
    const p = sdkApplication();
    app0(p).local_users[0].access_creds = ['c9'];
    expectOnly(
      errorsOf(p),
      'applications[0].local_users[0].access_creds[0]',
      /local access credential "c9" does not exist in application "app"/,
    );
  });
  it('access credentials receive grants and role assignments', () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'deployer', id: 'r-d', permissions: ['read'] }];
    app0(p).local_access_creds = [{ id: 'key-1', name: 'deploy key', is_active: true }];
    p.identity_to_permissions = [
      {
        identity: 'key-1',
        identity_type: 'local_access_creds',
        application_permissions: [{ application: 'app', permission: 'read', apply_to_application: true }],
        role_assignments: [{ application: 'app', role: 'r-d', apply_to_application: true }],
      },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('an application whose only identity is an access credential', () => {
    const p = sdkApplication();
    app0(p).local_users = [];
    app0(p).local_access_creds = [{ id: 'key-1', name: 'deploy key', is_active: true }];
    expect(errorsOf(p)).toEqual([]);
  });
  it('stricter than the SDK: an application with no identity at all is an error (spec)', () => {
    const p = sdkApplication();
    app0(p).local_users = [];
    expectOnly(errorsOf(p), 'applications[0]', /an application needs at least one identity/);
  });
  it('a role permission defined at the top level', () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'reader', permissions: ['READ'] }];
    expect(errorsOf(p)).toEqual([]);
  });
  it('stricter than the SDK: a role permission that is not defined is an error (spec)', () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'reader', permissions: ['write'] }];
    expectOnly(
      errorsOf(p),
      'applications[0].local_roles[0].permissions[0]',
      /permission "write" does not exist in the top-level permissions/,
    );
  });
  it('a user group that exists', () => {
    const p = sdkApplication();
    app0(p).local_groups = [{ name: 'admins' }];
    app0(p).local_users[0].groups = ['Admins'];
    expect(errorsOf(p)).toEqual([]);
  });
  it('stricter than the SDK: a user group that does not exist is an error (spec)', () => {
    const p = sdkApplication();
    app0(p).local_users[0].groups = ['admins'];
    expectOnly(
      errorsOf(p),
      'applications[0].local_users[0].groups[0]',
      /local group "admins" does not exist in application "app"/,
    );
  });
  it('resources of one type all with ids, or all without', () => {
    const p = sdkApplication();
    app0(p).resources = [
      { id: 'db-1', name: 'db1', resource_type: 'db' },
      { id: 'db-2', name: 'db2', resource_type: 'db' },
      { name: 'bucket', resource_type: 's3' },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
  it('stricter than the SDK: ids mixed within one resource type are an error (spec)', () => {
    const p = sdkApplication();
    app0(p).resources = [
      { id: 'db-1', name: 'db1', resource_type: 'db' },
      { name: 'db2', resource_type: 'db' },
    ];
    expectOnly(errorsOf(p), 'applications[0].resources[1].id', /must either all have an id or none/);
  });
  it('a property value of its declared type', () => {
    const p = sdkApplication();
    p.custom_property_definition.applications[0].local_user_properties = { seats: 'NUMBER' };
    app0(p).local_users[0].custom_properties = { seats: 2 };
    expect(errorsOf(p)).toEqual([]);
  });
  it('stricter than the SDK: a value of another type is an error (spec: values are validated)', () => {
    const p = sdkApplication();
    p.custom_property_definition.applications[0].local_user_properties = { seats: 'NUMBER' };
    app0(p).local_users[0].custom_properties = { seats: 'two' };
    expectOnly(
      errorsOf(p),
      'applications[0].local_users[0].custom_properties.seats',
      /must be a number: the property is declared as NUMBER/,
    );
  });
  it('hris managers and groups that exist', () => {
    const p = sdkHris();
    p.groups = [{ id: 'dept1', name: 'Department 1', group_type: 'Department' }];
    p.employees.push({ ...p.employees[0], id: 'e2', managers: [{ id: 'e1' }], department: { id: 'dept1' } });
    expect(validate('hris', p).errors).toEqual([]);
  });
  it('stricter than the SDK: a manager who is no employee is an error', () => {
    const p = sdkHris();
    p.employees[0].managers = [{ id: 'm9' }];
    expectOnly(
      validate('hris', p).errors,
      'employees[0].managers[0].id',
      /manager "m9" is not the id of an employee/,
    );
  });
  it("a role without permissions is accepted with the service's warning", () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'empty_role' }];
    const { errors, warnings } = validate('application', p);
    expect(errors).toEqual([]);
    expectOnly(warnings, 'applications[0].local_roles[0]', /^Role is missing permission/);
  });
  it('a role with only nested roles grants theirs: no warning', () => {
    const p = sdkApplication();
    app0(p).local_roles = [
      { name: 'reader', permissions: ['read'] },
      { name: 'lead', roles: ['reader'] },
    ];
    expect(validate('application', p)).toEqual({ errors: [], warnings: [] });
  });
  it('names and permissions resolve without case (view finds View)', () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'Reader', permissions: ['READ'] }];
    p.identity_to_permissions = [
      {
        identity: 'ALICE',
        identity_type: 'local_user',
        role_assignments: [{ application: 'APP', role: 'reader', apply_to_application: true }],
      },
    ];
    expect(errorsOf(p)).toEqual([]);
  });
});

describe('nested roles', () => {
  it('reports a nested role that does not exist', () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'lead', permissions: ['read'], roles: ['r-9'] }];
    expectOnly(
      errorsOf(p),
      'applications[0].local_roles[0].roles[0]',
      /local role "r-9" does not exist in application "app"/,
    );
  });
  it('reports a cycle once, naming its path', () => {
    const p = sdkApplication();
    app0(p).local_roles = [
      { name: 'a', id: 'r-a', permissions: ['read'], roles: ['r-b'] },
      { name: 'b', id: 'r-b', permissions: ['read'], roles: ['r-c'] },
      { name: 'c', id: 'r-c', permissions: ['read'], roles: ['R-A'] },
    ];
    expectOnly(
      errorsOf(p),
      'applications[0].local_roles[0].roles',
      /local role nesting has a cycle: "r-a" -> "r-b" -> "r-c" -> "r-a"/,
    );
  });
  it('reports a role that nests itself', () => {
    const p = sdkApplication();
    app0(p).local_roles = [{ name: 'a', permissions: ['read'], roles: ['A'] }];
    expectOnly(errorsOf(p), 'applications[0].local_roles[0].roles', /cycle: "a" -> "a"/);
  });
});

describe("the service's warnings", () => {
  it("as for the SDK live test's app: 4 unmatched user identities, 1 idp identity, 1 empty role", () => {
    const p = sdkApplication();
    app0(p).local_users = ['bob', 'marry', 'sue', 'rob'].map((name) => ({
      name,
      identities: [`${name}@example.com`],
    }));
    app0(p).local_roles = [
      { name: 'role2', permissions: ['read'] },
      { name: 'role3', permissions: ['read'], roles: ['role2'] },
      { name: 'empty_role' },
    ];
    p.identity_to_permissions = [
      {
        identity: 'user01@example.com',
        identity_type: 'idp',
        role_assignments: [{ application: 'app', role: 'role3', apply_to_application: true }],
      },
    ];
    const { errors, warnings } = validate('application', p, { knownIdentity: () => false });
    expect(errors).toEqual([]);
    expect(warnings.map((w) => w.description.replace(/:.*/, ''))).toEqual([
      'Role is missing permission',
      'Cannot find identity by names "bob@example.com"',
      'Cannot find identity by names "marry@example.com"',
      'Cannot find identity by names "sue@example.com"',
      'Cannot find identity by names "rob@example.com"',
      'Cannot find identity by names "user01@example.com"',
    ]);
  });
  it('one warning per unmatched identity, however many entities name it', () => {
    const p = sdkApplication();
    app0(p).local_users = [
      { name: 'a', identities: ['shared@example.com'] },
      { name: 'b', identities: ['SHARED@example.com'] },
    ];
    app0(p).local_groups = [{ name: 'g', identities: ['shared@example.com'] }];
    p.identity_to_permissions = [readGrant('shared@example.com', 'idp')];
    const { warnings } = validate('application', p, { knownIdentity: () => false });
    expectOnly(warnings, 'applications[0].local_groups[0].identities[0]', /"shared@example.com"/);
  });
});
