import { describe, expect, it } from 'vitest';
import { countEntities } from '../private-test-helpers/count-entities.js';
import { hasHeaderFields, identityKind, templateKinds } from './entity-counts.js';

describe('countEntities', () => {
  it('counts the entities nested in applications, sub-resources as resources, every kind present', () => {
    const payload = {
      applications: [
        {
          name: 'a',
          local_users: [{ name: 'u1' }, { name: 'u2' }],
          local_roles: [{ name: 'r' }],
          resources: [
            { name: 'db', sub_resources: [{ name: 't1' }, { name: 't2', sub_resources: [{ name: 'c' }] }] },
          ],
        },
        { name: 'b', local_users: [{ name: 'u3' }] },
      ],
      permissions: [{ name: 'read' }],
    };
    expect(countEntities('application', payload)).toEqual({
      applications: 2,
      local_users: 3,
      local_groups: 0,
      local_roles: 1,
      local_access_creds: 0,
      resources: 4,
      permissions: 1,
      identity_to_permissions: 0,
    });
  });

  it('counts the flat templates by their collections', () => {
    expect(countEntities('hris', { employees: [{ id: '1' }, { id: '2' }] })).toEqual({
      employees: 2,
      groups: 0,
    });
    expect(countEntities('identity_provider', { users: [{ name: 'x' }] })).toEqual({
      domains: 0,
      users: 1,
      groups: 0,
      apps: 0,
    });
  });
});

describe('the entity model of a template', () => {
  it('lists the kinds in report order and names the identity kind the deletion guard watches', () => {
    expect(templateKinds('hris')).toEqual(['employees', 'groups']);
    expect(templateKinds('application')[0]).toBe('applications');
    expect([identityKind('application'), identityKind('identity_provider'), identityKind('hris')]).toEqual([
      'local_users',
      'users',
      'employees',
    ]);
  });

  it('tells a payload with header fields from one with only entities', () => {
    expect(hasHeaderFields('hris', { employees: [{ id: '1' }] })).toBe(false);
    // An empty value is no value, as in the diff and the digest.
    expect(hasHeaderFields('hris', { employees: [], custom_property_definition: {} })).toBe(false);
    expect(
      hasHeaderFields('application', {
        applications: [],
        custom_property_definition: { applications: { application_properties: { tier: 'STRING' } } },
      }),
    ).toBe(true);
  });
});
