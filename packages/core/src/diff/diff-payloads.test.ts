import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { diffPayloads } from '../private-test-helpers/diff-payloads.js';
import type { JsonObject } from './json.js';

function app(extra: JsonObject = {}): JsonObject {
  return {
    name: 'crm',
    application_type: 'CRM',
    local_users: [
      {
        name: 'alice',
        is_active: true,
        tags: [
          { key: 'env', value: 'prod' },
          { key: 'team', value: 'a' },
        ],
      },
      { name: 'Bob', is_active: true },
    ],
    local_roles: [{ name: 'admin', permissions: ['write'] }],
    resources: [
      { name: 'repo1', resource_type: 'repo', sub_resources: [{ name: 'main', resource_type: 'branch' }] },
    ],
    ...extra,
  };
}

const before: JsonObject = {
  applications: [app()],
  permissions: [{ name: 'write', permission_type: ['DataWrite'] }],
  identity_to_permissions: [
    {
      identity: 'alice',
      identity_type: 'local_user',
      role_assignments: [{ application: 'crm', role: 'admin' }],
    },
  ],
};

describe('diffPayloads', () => {
  it('finds added, removed and changed local users, with their application', () => {
    const after = {
      ...before,
      applications: [
        app({
          local_users: [
            {
              name: 'alice',
              is_active: false,
              tags: [
                { key: 'team', value: 'a' },
                { key: 'env', value: 'prod' },
              ],
            },
            { name: 'carol' },
          ],
        }),
      ],
    };
    const diff = diffPayloads('application', before, after);
    expect(diff.byKind.local_users).toEqual({
      added: [{ kind: 'local_users', key: 'carol', name: 'carol', application: 'crm' }],
      removed: [{ kind: 'local_users', key: 'bob', name: 'Bob', application: 'crm' }],
      changed: [
        { kind: 'local_users', key: 'alice', name: 'alice', application: 'crm', fields: ['is_active'] },
      ],
    });
    expect(diff.counts.local_users).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(diff.byKind.applications.changed).toEqual([]);
    expect(diff.totals).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(diff.headerChanged).toBe(false);
    expect(diff.isEmpty).toBe(false);
  });

  it('pairs names case-insensitively: Bob renamed to bob is a change of name', () => {
    const alice = {
      name: 'alice',
      is_active: true,
      tags: [
        { key: 'env', value: 'prod' },
        { key: 'team', value: 'a' },
      ],
    };
    const after = {
      ...before,
      applications: [app({ local_users: [alice, { name: 'bob', is_active: true }] })],
    };
    const diff = diffPayloads('application', before, after);
    expect(diff.byKind.local_users.changed).toEqual([
      { kind: 'local_users', key: 'bob', name: 'bob', application: 'crm', fields: ['name'] },
    ]);
    expect(diff.counts.local_users).toEqual({ added: 0, removed: 0, changed: 1 });
  });

  it('counts a tag change as a change', () => {
    const after = {
      ...before,
      applications: [
        app({
          local_users: [
            {
              name: 'alice',
              is_active: true,
              tags: [
                { key: 'env', value: 'dev' },
                { key: 'team', value: 'a' },
              ],
            },
            { name: 'Bob', is_active: true },
          ],
        }),
      ],
    };
    expect(diffPayloads('application', before, after).byKind.local_users.changed).toEqual([
      { kind: 'local_users', key: 'alice', name: 'alice', application: 'crm', fields: ['tags'] },
    ]);
  });

  it('reports the local users, roles and resources of a removed application as removed too', () => {
    const diff = diffPayloads('application', before, { ...before, applications: [] });
    expect(diff.counts.applications.removed).toBe(1);
    expect(diff.counts.local_users.removed).toBe(2);
    expect(diff.counts.local_roles.removed).toBe(1);
    expect(diff.byKind.resources.removed.map((r) => r.key)).toEqual(['repo1', 'repo1/main']);
  });

  it('names a changed sub-resource by its path', () => {
    const after = {
      ...before,
      applications: [
        app({
          resources: [
            {
              name: 'repo1',
              resource_type: 'repo',
              sub_resources: [{ name: 'main', resource_type: 'branch', description: 'default' }],
            },
          ],
        }),
      ],
    };
    expect(diffPayloads('application', before, after).byKind.resources.changed).toEqual([
      {
        kind: 'resources',
        key: 'repo1/main',
        name: 'main',
        application: 'crm',
        resourcePath: ['repo1', 'main'],
        fields: ['description'],
      },
    ]);
  });

  it('does not mark an application changed when only its children change', () => {
    const after = { ...before, applications: [app({ local_roles: [{ name: 'admin', permissions: [] }] })] };
    const diff = diffPayloads('application', before, after);
    expect(diff.counts.applications).toEqual({ added: 0, removed: 0, changed: 0 });
    expect(diff.byKind.local_roles.changed).toEqual([
      { kind: 'local_roles', key: 'admin', name: 'admin', application: 'crm', fields: ['permissions'] },
    ]);
  });

  it('keys identity_to_permissions by identity type and identity', () => {
    const after = {
      ...before,
      identity_to_permissions: [{ identity: 'alice', identity_type: 'idp', role_assignments: [] }],
    };
    const diff = diffPayloads('application', before, after);
    expect(diff.byKind.identity_to_permissions.added.map((i) => i.key)).toEqual(['idp:alice']);
    expect(diff.byKind.identity_to_permissions.removed.map((i) => i.key)).toEqual(['local_user:alice']);
  });

  it('flags a header change on its own', () => {
    const after = {
      ...before,
      custom_property_definition: {
        applications: [{ application_type: 'CRM', local_user_properties: { dept: 'STRING' } }],
      },
    };
    const diff = diffPayloads('application', before, after);
    expect(diff.headerChanged).toBe(true);
    expect(diff.totals).toEqual({ added: 0, removed: 0, changed: 0 });
    expect(diff.isEmpty).toBe(false);
  });

  it('keys identity-provider users by identity, so a new display name is a change', () => {
    const idp = {
      name: 'corp',
      idp_type: 'custom',
      users: [{ name: 'Alice', identity: 'u-1', email: 'alice@example.com' }],
    };
    const renamed = { ...idp, users: [{ name: 'Alice Smith', identity: 'U-1', email: 'alice@example.com' }] };
    expect(diffPayloads('identity_provider', idp, renamed).byKind.users.changed).toEqual([
      { kind: 'users', key: 'u-1', name: 'Alice Smith', fields: ['identity', 'name'] },
    ]);
  });

  it('diffs hris employees by id', () => {
    const hris = { name: 'hr', hris_type: 'csv', employees: [{ id: 'e1', name: 'Ann', is_active: true }] };
    const diff = diffPayloads('hris', hris, {
      ...hris,
      employees: [
        { id: 'e1', name: 'Ann', is_active: false },
        { id: 'e2', name: 'Ben' },
      ],
    });
    expect(diff.counts.employees).toEqual({ added: 1, removed: 0, changed: 1 });
  });

  it('rejects two users that differ only in case, naming both places', () => {
    const dup = {
      applications: [
        { name: 'crm', application_type: 'CRM', local_users: [{ name: 'Bob' }, { name: 'bob' }] },
      ],
    };
    const call = () => diffPayloads('application', before, dup);
    expect(call).toThrow(ValidationError);
    expect(call).toThrow(
      "the new payload cannot be diffed: applications[0].local_users[1]: local user 'bob' appears more than once (first at applications[0].local_users[0]); keys compare case-insensitively",
    );
  });

  it('rejects an entity without its key', () => {
    const noName = { applications: [{ application_type: 'CRM' }] };
    try {
      diffPayloads('application', noName, before);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations).toEqual([
        { field: 'applications[0].name', description: 'application has no name; it cannot be identified' },
      ]);
      expect((error as ValidationError).message).toMatch(/^the previous payload cannot be diffed: /);
    }
  });
});
