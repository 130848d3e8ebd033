import { describe, expect, it } from 'vitest';
import { validate } from './index.js';
import { expectOnly, fixture } from '../private-test-helpers/fixtures.js';

const app = () => fixture('application');
const wiki = (p: any) => p.applications[0];

describe('application identities', () => {
  it('requires at least one identity per application', () => {
    const p = app();
    p.applications.push({ name: 'Empty', application_type: 'wiki' });
    expectOnly(validate('application', p).errors, 'applications[1]', /at least one identity/);
  });
  it('counts an idp identity in identity_to_permissions as an identity', () => {
    const p = app();
    p.applications.push({ name: 'Empty', application_type: 'wiki' });
    p.identity_to_permissions.push({
      identity: 'dan@example.com',
      identity_type: 'idp',
      application_permissions: [{ application: 'Empty', permission: 'View', apply_to_application: true }],
    });
    expect(validate('application', p).errors).toEqual([]);
  });
});

describe('local groups', () => {
  it('rejects a user group that does not exist', () => {
    const p = app();
    wiki(p).local_users[1].groups = ['Viewers', 'Admins'];
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[1].groups[1]',
      /local group "Admins" does not exist in application "Team Wiki"/,
    );
  });
  it('rejects a parent group that does not exist', () => {
    const p = app();
    wiki(p).local_groups[1].groups = ['Nobody'];
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_groups[1].groups[0]',
      /local group "Nobody" does not exist/,
    );
  });
  it('rejects a cycle in group nesting and names it', () => {
    const p = app();
    wiki(p).local_groups[1].groups = ['editors'];
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_groups[0].groups',
      /cycle: "Editors" -> "Viewers" -> "Editors"/,
    );
  });
  it('resolves groups by unique id as well as by name', () => {
    const p = app();
    wiki(p).local_groups[1].unique_id = 'g-view';
    wiki(p).local_users[1].groups = ['G-VIEW'];
    expect(validate('application', p).errors).toEqual([]);
  });
});

describe('local roles', () => {
  it('rejects a role permission that does not exist', () => {
    const p = app();
    wiki(p).local_roles[1].permissions = ['View', 'Delete'];
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_roles[1].permissions[1]',
      /permission "Delete" does not exist in the top-level permissions/,
    );
  });
  it('warns about a role with no permissions but accepts the payload', () => {
    const p = app();
    wiki(p).local_roles[1].permissions = [];
    const { errors, warnings } = validate('application', p);
    expect(errors).toEqual([]);
    expectOnly(warnings, 'applications[0].local_roles[1]', /^Role is missing permission/);
  });
});

describe('case-insensitive names', () => {
  it('finds references whatever their case', () => {
    const p = app();
    wiki(p).local_users[0].groups = ['EDITORS'];
    p.identity_to_permissions[0].identity = 'ALICE';
    p.identity_to_permissions[0].role_assignments[0].role = 'admin';
    expect(validate('application', p).errors).toEqual([]);
  });
  it('treats names that differ only in case as duplicates', () => {
    const p = app();
    wiki(p).local_users[1].name = 'alice';
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[1].name',
      /duplicate local user "alice".*first is at index 0/,
    );
  });
  it('rejects duplicate permissions, roles, groups and applications', () => {
    const p = app();
    p.permissions.push({ name: 'VIEW', permission_type: ['DataRead'] });
    wiki(p).local_roles.push({ name: 'admin', permissions: ['View'] });
    wiki(p).local_groups.push({ name: 'viewers' });
    p.applications.push({ ...structuredClone(wiki(p)), name: 'TEAM WIKI' });
    const fields = validate('application', p).errors.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'permissions[2].name',
        'applications[0].local_roles[2].name',
        'applications[0].local_groups[2].name',
        'applications[1].name',
      ]),
    );
  });
  it('rejects duplicate unique ids', () => {
    const p = app();
    wiki(p).local_users[0].unique_id = 'u1';
    wiki(p).local_users[1].unique_id = 'U1';
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[1].unique_id',
      /duplicate local user "U1"/,
    );
  });
});

describe('identity_to_permissions references', () => {
  it.each([
    [
      'application',
      (p: any) => (p.identity_to_permissions[0].role_assignments[0].application = 'Wiki'),
      'identity_to_permissions[0].role_assignments[0].application',
      /application "Wiki" does not exist/,
    ],
    [
      'role',
      (p: any) => (p.identity_to_permissions[0].role_assignments[0].role = 'Owner'),
      'identity_to_permissions[0].role_assignments[0].role',
      /local role "Owner" does not exist in application "Team Wiki"/,
    ],
    [
      'permission',
      (p: any) => (p.identity_to_permissions[1].application_permissions[0].permission = 'Own'),
      'identity_to_permissions[1].application_permissions[0].permission',
      /permission "Own" does not exist/,
    ],
    [
      'resource path',
      (p: any) => (p.identity_to_permissions[1].application_permissions[0].resources = ['Engineering.Specs']),
      'identity_to_permissions[1].application_permissions[0].resources[0]',
      /resource "Engineering.Specs" does not exist/,
    ],
    [
      'local user',
      (p: any) => (p.identity_to_permissions[0].identity = 'Zed'),
      'identity_to_permissions[0].identity',
      /local user "Zed" does not exist in application "Team Wiki"/,
    ],
    [
      'local group',
      (p: any) => (p.identity_to_permissions[1].identity = 'Owners'),
      'identity_to_permissions[1].identity',
      /local group "Owners" does not exist/,
    ],
  ])('rejects a missing %s', (_what, mutate, field, description) => {
    const p = app();
    mutate(p);
    expectOnly(validate('application', p).errors, field, description);
  });
  it('warns about idp identities that match no identity-provider entity when it can know', () => {
    const known = new Set(['alice@example.com', 'bob@example.com']);
    const { errors, warnings } = validate('application', app(), {
      knownIdentity: (id) => known.has(id.toLowerCase()),
    });
    expect(errors).toEqual([]);
    expectOnly(
      warnings,
      'identity_to_permissions[2].identity',
      /^Cannot find identity by names "carol@example.com"/,
    );
  });
  it('warns about a local user identity that matches no identity-provider entity', () => {
    const known = new Set(['carol@example.com', 'bob@example.com']);
    const { warnings } = validate('application', app(), { knownIdentity: (id) => known.has(id) });
    expectOnly(
      warnings,
      'applications[0].local_users[0].identities[0]',
      /^Cannot find identity by names "alice@example.com"/,
    );
  });
});

describe('resources', () => {
  it('requires all resources of one type to have an id, or none', () => {
    const p = app();
    wiki(p).resources[0].id = 'sp-1';
    expectOnly(
      validate('application', p).errors,
      'applications[0].resources[1].id',
      /type "space" must either all have an id or none/,
    );
    wiki(p).resources[1].id = 'sp-2';
    expect(validate('application', p).errors).toEqual([]);
  });
  it('rejects sibling resources with the same name', () => {
    const p = app();
    wiki(p).resources[1].name = 'ENGINEERING';
    expectOnly(
      validate('application', p).errors,
      'applications[0].resources[1].name',
      /duplicate resource "ENGINEERING"/,
    );
  });
  it('accepts any named node type for a connection, and rejects an empty one', () => {
    const p = app();
    wiki(p).resources[1].connections = [{ id: 'svc-1', node_type: 'GoogleCloudServiceAccount' }];
    expect(validate('application', p).errors).toEqual([]);
    wiki(p).resources[1].connections = [{ id: 'svc-1', node_type: '' }];
    expectOnly(
      validate('application', p).errors,
      'applications[0].resources[1].connections[0].node_type',
      /must name the connected node type/,
    );
  });
});

describe('custom properties, tags and dynamic properties', () => {
  it('rejects a value of the wrong type', () => {
    const p = app();
    wiki(p).local_users[0].custom_properties.seats = '2';
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[0].custom_properties.seats',
      /must be a number: the property is declared as NUMBER/,
    );
  });
  it('rejects an undeclared property', () => {
    const p = app();
    wiki(p).local_users[1].custom_properties = { nickname: 'bobby' };
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[1].custom_properties.nickname',
      /not declared in custom_property_definition \(local_user_properties of application type "wiki"\)/,
    );
  });
  it('rejects a property name outside ^[a-z][a-z_]*$ (once lower-cased)', () => {
    const p = app();
    wiki(p).local_users[1].custom_properties = { 'Nick-name': 'bobby' };
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[1].custom_properties["Nick-name"]',
      /\^\[a-z\]\[a-z_\]\*\$ once lower-cased/,
    );
  });
  it('checks tag keys and values against their patterns', () => {
    const p = app();
    wiki(p).tags = [
      { key: 'owner_team', value: 'ops, sre@example.com-1' },
      { key: 'empty', value: '' },
      { key: 'bare' },
    ];
    expect(validate('application', p).errors).toEqual([]);
    wiki(p).tags = [
      { key: 'owner-team', value: 'ok' },
      { key: 'k', value: 'no/slash' },
    ];
    const { errors } = validate('application', p);
    expect(errors.map((e) => e.field)).toEqual([
      'applications[0].tags[0].key',
      'applications[0].tags[1].value',
    ]);
  });
  it('allows at most 5 dynamic properties', () => {
    const p = app();
    wiki(p).local_users[1].dynamic_properties = { a: 1, b: 2, c: 3, d: 4, e: 5 };
    expect(validate('application', p).errors).toEqual([]);
    wiki(p).local_users[1].dynamic_properties.f = 6;
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[1].dynamic_properties',
      /at most 5 dynamic properties/,
    );
  });
});

describe('incremental payloads', () => {
  it('accepts operations only when incremental_change is true', () => {
    const p = app();
    wiki(p).local_users[1].operation = 'modify';
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[1].operation',
      /only allowed when incremental_change is true/,
    );
    p.incremental_change = true;
    expect(validate('application', p).errors).toEqual([]);
  });
  it('never uses add and modify on one object', () => {
    const p = {
      incremental_change: true,
      applications: [
        {
          name: 'Team Wiki',
          application_type: 'wiki',
          local_users: [
            { name: 'Zoe', operation: 'add' },
            { name: 'zoe', operation: 'modify' },
          ],
        },
      ],
    };
    expectOnly(
      validate('application', p).errors,
      'applications[0].local_users[1].operation',
      /add and modify are never used on the same object/,
    );
  });
  it('is not available for hris', () => {
    const p = fixture('hris');
    p.incremental_change = true;
    expectOnly(validate('hris', p).errors, 'incremental_change', /not available for the hris template/);
  });
});

describe('identity_to_permissions entries', () => {
  const alice = (p: any) => p.identity_to_permissions[0];
  it.each([
    ['the same local user in another case', (p: any) => ({ ...alice(p), identity: 'ALICE' })],
    [
      'a local user by name when it has a unique id',
      (p: any) => {
        wiki(p).local_users[0].unique_id = 'u-1';
        alice(p).identity = 'alice';
        return { ...alice(p) };
      },
    ],
  ])('rejects a second entry for %s', (_what, second) => {
    const p = app();
    p.identity_to_permissions.push(second(p));
    expectOnly(
      validate('application', p).errors,
      `identity_to_permissions[${p.identity_to_permissions.length - 1}].identity`,
      /duplicate identity_to_permissions entry "(ALICE|alice)".* the first is at index 0/,
    );
  });
  it('rejects a repeated entry when the payload has two applications', () => {
    const p = app();
    p.applications.push({ ...structuredClone(wiki(p)), name: 'Other Wiki' });
    p.identity_to_permissions.push({
      identity: 'alice',
      identity_type: 'local_user',
      role_assignments: [{ application: 'Other Wiki', role: 'Admin', apply_to_application: true }],
    });
    expectOnly(
      validate('application', p).errors,
      `identity_to_permissions[${p.identity_to_permissions.length - 1}].identity`,
      /duplicate identity_to_permissions entry "alice"/,
    );
  });
  it('accepts a local user and a local group of the same name', () => {
    const p = app();
    wiki(p).local_groups.push({ name: 'Alice' });
    p.identity_to_permissions.push({
      identity: 'alice',
      identity_type: 'local_group',
      application_permissions: [{ application: 'Team Wiki', permission: 'View', apply_to_application: true }],
    });
    expect(validate('application', p).errors).toEqual([]);
  });
  it('still knows a user whose other fields are malformed, so grants to it add no error', () => {
    const p = app();
    wiki(p).local_users[0].created_at = 'yesterday';
    expectOnly(validate('application', p).errors, 'applications[0].local_users[0].created_at', /RFC 3339/);
  });
});

describe('many local users', () => {
  const many = (names: string[], ids?: (string | undefined)[]) => {
    const p = app();
    wiki(p).local_users = names.map((name, i) => ({
      name,
      identities: [`${i}@example.com`],
      ...(ids?.[i] ? { unique_id: ids[i] } : {}),
    }));
    p.identity_to_permissions = [p.identity_to_permissions[1]];
    return p;
  };
  const names = Array.from({ length: 40 }, (_, i) => `user${i}`);
  it.each([
    [
      'a name in another case',
      [...names, 'USER7'],
      undefined,
      'applications[0].local_users[40].name',
      /duplicate local user "USER7".* index 7/,
    ],
    [
      'a non-ASCII name',
      [...names, 'Ésa', 'éSA'],
      undefined,
      'applications[0].local_users[41].name',
      /duplicate local user "éSA".* index 40/,
    ],
    [
      'a unique id',
      [...names, 'other'],
      [...names.map((_, i) => `id-${i}`), 'ID-3'],
      'applications[0].local_users[40].unique_id',
      /duplicate local user "ID-3".* index 3/,
    ],
  ])('finds %s repeated among dozens of users', (_what, list, ids, field, message) => {
    expectOnly(validate('application', many(list, ids)).errors, field, message);
  });
  it('resolves grants to users by unique id or by name among dozens', () => {
    const p = many(
      names,
      names.map((_, i) => `id-${i}`),
    );
    p.identity_to_permissions.push(
      {
        identity: 'ID-12',
        identity_type: 'local_user',
        role_assignments: [{ application: 'Team Wiki', role: 'Admin', apply_to_application: true }],
      },
      {
        identity: 'User13',
        identity_type: 'local_user',
        role_assignments: [{ application: 'Team Wiki', role: 'Admin', apply_to_application: true }],
      },
      {
        identity: 'user99',
        identity_type: 'local_user',
        role_assignments: [{ application: 'Team Wiki', role: 'Admin', apply_to_application: true }],
      },
    );
    expectOnly(
      validate('application', p).errors,
      'identity_to_permissions[3].identity',
      /local user "user99" does not exist/,
    );
  });
});

describe('frozen grants shared between identities', () => {
  it('are checked once when nothing in them can change, and again when something can', () => {
    const p = app();
    const shared = Object.freeze({ application: 'Team Wiki', role: 'Admin', apply_to_application: true });
    let reads = 0;
    const changing = Object.freeze({
      application: 'Team Wiki',
      get role(): unknown {
        return ++reads <= 3 ? 'Admin' : 7; // the first entry's checks read it three times
      },
    });
    p.identity_to_permissions = [
      { identity: 'Alice', identity_type: 'local_user', role_assignments: [shared, changing] },
      { identity: 'Bob', identity_type: 'local_user', role_assignments: [shared, changing] },
    ];
    expectOnly(
      validate('application', p).errors,
      'identity_to_permissions[1].role_assignments[1].role',
      /must be a string, got number/,
    );
  });

  it('judge a deeply frozen role_assignments list again for each grantee it could fail for', () => {
    const p = app();
    const role = (name: string) =>
      Object.freeze([Object.freeze({ application: 'Team Wiki', role: name, apply_to_application: true })]);
    const admin = role('Admin');
    const missing = role('Nope');
    p.identity_to_permissions = [
      { identity: 'Alice', identity_type: 'local_user', role_assignments: admin },
      { identity: 'Bob', identity_type: 'local_user', role_assignments: admin },
      { identity: 'ghost', identity_type: 'local_user', role_assignments: admin },
      { identity: 'Alice', identity_type: 'local_group', role_assignments: admin },
      { identity: 'Viewers', identity_type: 'local_group', role_assignments: missing },
      { identity: 'carol@example.com', identity_type: 'idp', role_assignments: missing },
    ];
    const errors = validate('application', p).errors;
    expect(errors.map((e) => `${e.field}: ${e.description}`)).toEqual([
      'identity_to_permissions[2].identity: local user "ghost" does not exist in application "Team Wiki"',
      'identity_to_permissions[3].identity: local group "Alice" does not exist in application "Team Wiki"',
      'identity_to_permissions[4].role_assignments[0].role: local role "Nope" does not exist in application "Team Wiki"',
      'identity_to_permissions[5].role_assignments[0].role: local role "Nope" does not exist in application "Team Wiki"',
    ]);
  });
});

describe('resources made by spreading and then extending (as the builder makes them)', () => {
  it('are read for every rule', () => {
    const p = app();
    const extend = (r: object, more: Record<string, unknown>) => {
      const out: Record<string, unknown> = { ...r };
      for (const [k, v] of Object.entries(more)) out[k] = v;
      return out;
    };
    wiki(p).resources = [
      extend(
        { name: 'a', resource_type: 'page' },
        {
          sub_resources: [
            extend({ name: 'b', resource_type: 'section' }, { id: 'x' }),
            { name: 'c', resource_type: 'section' },
          ],
        },
      ),
      extend({ name: 'd', resource_type: 'page' }, { operation: 'add' }),
      extend({ name: 'e', resource_type: 'page' }, { custom_properties: { nope: 'x' } }),
      extend({ name: 'f', resource_type: 'page' }, { id: 'F1' }),
    ];
    p.identity_to_permissions.push({
      identity: 'Bob',
      identity_type: 'local_user',
      application_permissions: [
        { application: 'Team Wiki', permission: 'View', resources: ['a.x', 'a.c', 'a.b.c'] },
      ],
    });
    const errors = validate('application', p).errors.map((e) => `${e.field}: ${e.description}`);
    // The fixture's grants name resources replaced here: only the errors of the new ones are looked at.
    expect(errors.filter((e) => !e.includes('Engineering'))).toEqual([
      'applications[0].resources[0].sub_resources[1].id: resources of type "section" must either all have an id or none: this one lacks an id, the first of its type has one',
      'applications[0].resources[1].operation: is only allowed when incremental_change is true',
      'applications[0].resources[2].custom_properties.nope: custom property "nope" is not declared in custom_property_definition (resource type "page")',
      'applications[0].resources[3].id: resources of type "page" must either all have an id or none: this one has an id, the first of its type lacks one',
      `identity_to_permissions[${p.identity_to_permissions.length - 1}].application_permissions[0].resources[2]: resource "a.b.c" does not exist in application "Team Wiki" (name sub-resources as parent.child)`,
    ]);
  });
});
