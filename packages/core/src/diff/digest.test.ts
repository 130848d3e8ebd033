import { describe, expect, it } from 'vitest';
import { OaaError, ValidationError } from '../errors.js';
import type { Template } from '../schemas/templates.js';
import { digest } from './digest.js';

const base = {
  applications: [
    {
      name: 'app1',
      application_type: 'crm',
      local_users: [
        {
          name: 'alice',
          identities: ['alice@example.com'],
          is_active: true,
          tags: [{ key: 'env', value: 'prod' }],
        },
        { name: 'bob', identities: ['bob@example.com'], is_active: true },
      ],
    },
  ],
  permissions: [{ name: 'read', permission_type: ['DataRead'] }],
};

describe('digest', () => {
  it('is a hex SHA-256', () => {
    expect(digest('application', base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on the order of users', () => {
    const [app] = base.applications;
    const reordered = { ...base, applications: [{ ...app!, local_users: [...app!.local_users].reverse() }] };
    expect(digest('application', reordered)).toBe(digest('application', base));
  });

  it('changes when one field of one user changes', () => {
    const [app] = base.applications;
    const [alice, bob] = app!.local_users;
    const changed = {
      ...base,
      applications: [{ ...app!, local_users: [alice!, { ...bob!, is_active: false }] }],
    };
    expect(digest('application', changed)).not.toBe(digest('application', base));
  });

  it('keeps the order of lists that are not entity collections', () => {
    const a = {
      name: 'idp',
      idp_type: 'custom',
      users: [{ name: 'u', identity: 'u1', groups: [{ identity: 'g1' }, { identity: 'g2' }] }],
    };
    const b = { ...a, users: [{ ...a.users[0]!, groups: [{ identity: 'g2' }, { identity: 'g1' }] }] };
    expect(digest('identity_provider', b)).not.toBe(digest('identity_provider', a));
  });

  it('counts a user listed twice twice', () => {
    const [app] = base.applications;
    const twice = {
      ...base,
      applications: [{ ...app!, local_users: [...app!.local_users, app!.local_users[1]!] }],
    };
    expect(digest('application', twice)).not.toBe(digest('application', base));
  });

  it('treats null, [] and {} as unused and ignores incremental_change', () => {
    const noisy = {
      ...base,
      identity_to_permissions: [],
      custom_property_definition: {},
      incremental_change: false,
    };
    expect(digest('application', noisy)).toBe(digest('application', base));
  });

  it('tells where nested entities sit, not their order', () => {
    const tree = (resources: unknown[]) => ({
      ...base,
      applications: [{ ...base.applications[0]!, resources }],
    });
    const branch = (name: string) => ({ name, resource_type: 'branch' });
    const repo = (name: string, subs?: unknown[]) => ({
      name,
      resource_type: 'repo',
      ...(subs === undefined ? {} : { sub_resources: subs }),
    });
    const both = digest('application', tree([repo('a', [branch('main'), branch('dev')]), repo('b')]));
    // Sub-resources in another order: the same; none, or an empty list: the same.
    expect(digest('application', tree([repo('a', [branch('dev'), branch('main')]), repo('b', [])]))).toBe(
      both,
    );
    // The same sub-resource under the other repository, or one level deeper: different.
    expect(digest('application', tree([repo('a', [branch('main')]), repo('b', [branch('dev')])]))).not.toBe(
      both,
    );
    expect(digest('application', tree([repo('a', [repo('main', [branch('dev')])]), repo('b')]))).not.toBe(
      both,
    );
    // An entity with nested entities changes when its own data does.
    expect(
      digest(
        'application',
        tree([{ ...repo('a', [branch('main'), branch('dev')]), description: 'x' }, repo('b')]),
      ),
    ).not.toBe(both);
  });

  it('differs between templates for the same object', () => {
    const payload = { name: 'x' };
    const templates: Template[] = ['application', 'identity_provider', 'hris'];
    expect(new Set(templates.map((t) => digest(t, payload))).size).toBe(3);
  });

  it('rejects an entity collection that is not a list', () => {
    const bad = { applications: { name: 'app1' } };
    expect(() => digest('application', bad)).toThrow(ValidationError);
    expect(() => digest('application', bad)).toThrow(
      'the payload cannot be digested: applications: must be a list of entities',
    );
  });

  it('names every entity collection that is not a list of objects, nested ones too', () => {
    const bad = {
      applications: [
        {
          name: 'app1',
          resources: [{ name: 'r', sub_resources: ['branch'] }],
          local_users: new Set([{ name: 'u' }]),
        },
      ],
      permissions: [7],
    };
    let error: unknown;
    try {
      digest('application', bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).violations).toEqual([
      { field: 'applications[0].local_users', description: 'must be a list of entities' },
      { field: 'applications[0].resources[0].sub_resources[0]', description: 'must be an object' },
      { field: 'permissions[0]', description: 'must be an object' },
    ]);
  });

  it('rejects an unknown template', () => {
    const call = (): string => digest('ldap' as Template, {});
    expect(call).toThrow(OaaError);
    expect(call).toThrow("unknown payload template 'ldap'");
  });
});
