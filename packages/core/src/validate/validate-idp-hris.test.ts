import { describe, expect, it } from 'vitest';
import { validate } from './index.js';
import { expectOnly, fixture } from '../private-test-helpers/fixtures.js';

describe('identity_provider', () => {
  const idp = () => fixture('identity-provider');
  it('has exactly one domain', () => {
    const p = idp();
    p.domains.push({ name: 'other.example.com' });
    expectOnly(validate('identity_provider', p).errors, 'domains', /exactly one domain; got 2/);
    p.domains = [];
    expectOnly(validate('identity_provider', p).errors, 'domains', /exactly one domain; got 0/);
  });
  it('rejects duplicate user identities, whatever their case', () => {
    const p = idp();
    p.users[1].identity = 'U-1';
    const { errors } = validate('identity_provider', p);
    expect(errors.find((e) => e.field === 'users[1].identity')?.description).toMatch(
      /duplicate user identity "U-1"/,
    );
  });
  it('rejects a manager_id that names no user', () => {
    const p = idp();
    p.users[1].manager_id = 'u-9';
    expectOnly(
      validate('identity_provider', p).errors,
      'users[1].manager_id',
      /manager "u-9" is not the identity of a user/,
    );
  });
  it('rejects group references that do not exist, and nesting cycles', () => {
    const p = idp();
    p.users[0].groups = [{ identity: 'g-ops' }];
    expectOnly(
      validate('identity_provider', p).errors,
      'users[0].groups[0].identity',
      /group "g-ops" does not exist/,
    );
    const q = idp();
    q.groups[1].groups = [{ identity: 'g-eng' }];
    expectOnly(
      validate('identity_provider', q).errors,
      'groups[0].groups',
      /cycle: "Engineering" -> "Everyone" -> "Engineering"/,
    );
  });
  it('rejects an app assignment to an unknown app', () => {
    const p = idp();
    p.users[0].app_assignments[0].app_id = 'app-chat';
    expectOnly(
      validate('identity_provider', p).errors,
      'users[0].app_assignments[0].app_id',
      /app "app-chat" does not exist in apps/,
    );
  });
  it('accepts assumed_role_arns in both forms', () => {
    const p = idp();
    p.users[0].assumed_role_arns = [{ identity: 'arn:role/a' }];
    p.users[1].assumed_role_arns = { identity: ['arn:role/a', 'arn:role/b'] };
    expect(validate('identity_provider', p).errors).toEqual([]);
    p.users[1].assumed_role_arns = { identities: ['x'] };
    expect(validate('identity_provider', p).errors.map((e) => e.field)).toEqual([
      'users[1].assumed_role_arns.identities',
    ]);
  });
});

describe('hris', () => {
  const hris = () => fixture('hris');
  it.each(['id', 'name', 'employee_number', 'first_name', 'last_name', 'employment_status', 'is_active'])(
    'requires employee %s',
    (field) => {
      const p = hris();
      delete p.employees[1][field];
      expectOnly(validate('hris', p).errors, `employees[1].${field}`, /is required/);
    },
  );
  it.each([
    [
      'manager',
      (p: any) => (p.employees[1].managers = [{ id: 'E9' }]),
      'employees[1].managers[0].id',
      /manager "E9" is not the id of an employee/,
    ],
    [
      'group',
      (p: any) => (p.employees[1].groups = [{ id: 'dept-ops' }]),
      'employees[1].groups[0].id',
      /group "dept-ops" is not the id of a group/,
    ],
    [
      'department',
      (p: any) => (p.employees[0].department = { id: 'dept-hr' }),
      'employees[0].department.id',
      /department "dept-hr"/,
    ],
    [
      'cost center',
      (p: any) => (p.employees[0].cost_center = { id: 'cc-9' }),
      'employees[0].cost_center.id',
      /cost center "cc-9"/,
    ],
  ])('rejects an unknown %s', (_what, mutate, field, description) => {
    const p = hris();
    mutate(p);
    expectOnly(validate('hris', p).errors, field, description);
  });
  it('rejects duplicate employee ids', () => {
    const p = hris();
    p.employees[1].id = 'e1';
    const { errors } = validate('hris', p);
    expect(errors.find((e) => e.field === 'employees[1].id')?.description).toMatch(
      /duplicate employee id "e1"/,
    );
  });
  it('checks system idp_providers against the allowed list', () => {
    const p = hris();
    p.system.idp_providers = ['okta', 'ldap'];
    expectOnly(
      validate('hris', p).errors,
      'system.idp_providers[1]',
      /active_directory, azure_ad, google_workspace, okta, one_login/,
    );
  });
});
