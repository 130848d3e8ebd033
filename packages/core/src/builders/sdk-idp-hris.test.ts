/**
 * Issue 10: the identity_provider and hris payloads the vendor SDK 1.1.15 built
 * (shared/fixtures/sdk-1.1.15), built again with the builders, without casts, and compared.
 */
import { describe, expect, it } from 'vitest';
import { sdkFixture } from '../test-support/fixtures.js';
import { normalisePayload } from '../test-support/normalise.js';
import { validate } from '../validate/index.js';
import { HrisPayloadBuilder } from './hris.js';
import { IdentityProviderPayloadBuilder } from './identity-provider.js';

function buildMaxIdp() {
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

function buildMaxHris() {
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

describe('building the SDK 1.1.15 identity_provider and hris payloads', () => {
  it('identity_provider: the same entities as the SDK, and valid', () => {
    const built = buildMaxIdp();
    expect(normalisePayload(built)).toEqual(normalisePayload(sdkFixture('identity_provider')));
    expect(validate('identity_provider', built)).toEqual({ errors: [], warnings: [] });
  });
  it('hris: the same entities as the SDK, and valid', () => {
    const built = buildMaxHris();
    expect(normalisePayload(built)).toEqual(normalisePayload(sdkFixture('hris')));
    expect(validate('hris', built)).toEqual({ errors: [], warnings: [] });
  });
});
