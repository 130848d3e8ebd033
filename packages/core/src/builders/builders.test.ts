import { describe, expect, it } from 'vitest';
import { OaaError, ValidationError } from '../errors.js';
import { validate } from '../validate/index.js';
import { ApplicationPayloadBuilder } from './application-payload.js';
import { HrisPayloadBuilder } from './hris.js';
import { IdentityProviderPayloadBuilder } from './identity-provider.js';

function wikiBuilder() {
  const b = new ApplicationPayloadBuilder();
  b.addPermission({ name: 'View', permission_type: ['DataRead'], apply_to_sub_resources: true });
  b.addPermission({ name: 'Edit', permission_type: ['DataWrite'] });
  const app = b.addApplication({ name: 'Team Wiki', application_type: 'wiki' });
  app
    .defineProperty('local_user', 'department', 'STRING')
    .defineResourceProperty('space', 'visibility', 'STRING');
  app.addLocalGroup({ name: 'Viewers', unique_id: 'g-view' });
  app.addLocalGroup({ name: 'Editors', groups: ['viewers'] });
  app.addLocalRole({ name: 'Admin', permissions: ['view', 'EDIT'] });
  app.addLocalUser({
    name: 'Alice',
    identities: ['alice@example.com'],
    groups: ['Editors'],
    custom_properties: { department: 'eng' },
  });
  app.addLocalUser({ name: 'Bob', unique_id: 'u-bob', groups: ['G-VIEW'] });
  const eng = app.addResource({
    name: 'Engineering',
    resource_type: 'space',
    custom_properties: { visibility: 'private' },
  });
  eng.addSubResource({ name: 'Runbooks', resource_type: 'page' });
  return { b, app };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof OaaError ? e.code : 'not an OaaError';
  }
  return undefined;
}

describe('ApplicationPayloadBuilder', () => {
  it.each([3, 12])('refuses a repeated sub-resource and finds the others among %i', (count) => {
    const { b, app } = wikiBuilder();
    const repo = app.addResource({ name: 'Repo', resource_type: 'repo' });
    for (let i = 0; i < count; i++)
      repo.addSubResource({
        name: `branch${i}`,
        id: i === 1 ? 'b-1' : undefined,
        resource_type: i === 1 ? 'tag' : 'branch',
      });
    const error = (() => {
      try {
        repo.addSubResource({ name: 'BRANCH2', resource_type: 'branch' });
      } catch (e) {
        return e as OaaError;
      }
    })();
    expect(error?.code).toBe('DUPLICATE_ENTITY');
    expect(error?.message).toBe(
      'duplicate sub-resource "BRANCH2" under resource "Repo": names and ids compare without case',
    );
    // Found by id, by name beside an id, and (at depth) through builders made again on demand.
    repo
      .addSubResource({ name: 'branch0' + 'x', resource_type: 'branch' })
      .addSubResource({ name: 'f', resource_type: 'file' });
    for (const ref of ['repo.B-1', 'Repo.branch1', `repo.branch${count - 1}`, 'REPO.branch0x.F'])
      b.grantPermission({
        identity: 'alice',
        identityType: 'local_user',
        application: 'Team Wiki',
        permission: 'View',
        resources: [ref],
      });
    expect(
      codeOf(() =>
        b.grantPermission({
          identity: 'alice',
          identityType: 'local_user',
          application: 'Team Wiki',
          permission: 'View',
          resources: ['repo.nope'],
        }),
      ),
    ).toBe('UNKNOWN_REFERENCE');
    expect(validate('application', b.build()).errors).toEqual([]);
  });

  it('builds a payload that validates, with references by name or unique id in any case', () => {
    const { b } = wikiBuilder();
    b.grantRole({
      identity: 'alice',
      identityType: 'local_user',
      application: 'team wiki',
      role: 'admin',
      applyToApplication: true,
    });
    b.grantPermission({
      identity: 'u-bob',
      identityType: 'local_user',
      application: 'Team Wiki',
      permission: 'View',
      resources: ['engineering.runbooks'],
    });
    b.grantPermission({
      identity: 'carol@example.com',
      identityType: 'idp',
      application: 'Team Wiki',
      permission: 'Edit',
      applyToApplication: true,
    });
    const payload = b.build();
    expect(validate('application', payload)).toEqual({ errors: [], warnings: [] });
    expect(payload.identity_to_permissions).toHaveLength(3);
    expect(payload.custom_property_definition?.applications?.[0]?.local_user_properties).toEqual({
      department: 'STRING',
    });
  });

  it('puts two grants to one identity into one identity_to_permissions entry', () => {
    const { b } = wikiBuilder();
    b.grantRole({ identity: 'Alice', identityType: 'local_user', application: 'Team Wiki', role: 'Admin' });
    b.grantPermission({
      identity: 'ALICE',
      identityType: 'local_user',
      application: 'Team Wiki',
      permission: 'View',
      resources: ['Engineering'],
    });
    const [entry] = b.build().identity_to_permissions!;
    expect(entry!.role_assignments).toHaveLength(1);
    expect(entry!.application_permissions).toHaveLength(1);
  });

  it('refuses duplicates whatever their case', () => {
    const { b, app } = wikiBuilder();
    expect(codeOf(() => app.addLocalUser({ name: 'ALICE' }))).toBe('DUPLICATE_ENTITY');
    expect(codeOf(() => app.addLocalGroup({ name: 'editors' }))).toBe('DUPLICATE_ENTITY');
    expect(codeOf(() => b.addPermission({ name: 'view', permission_type: ['DataRead'] }))).toBe(
      'DUPLICATE_ENTITY',
    );
    expect(codeOf(() => b.addApplication({ name: 'TEAM WIKI', application_type: 'wiki' }))).toBe(
      'DUPLICATE_ENTITY',
    );
    expect(() => app.addLocalUser({ name: 'alice' })).toThrow(
      'duplicate local user "alice" in application "Team Wiki"',
    );
  });

  it('refuses dangling references where they are made, naming both ends', () => {
    const { b, app } = wikiBuilder();
    expect(() => app.addLocalUser({ name: 'Dan', groups: ['Owners'] })).toThrow(
      'local user "Dan" references local group "Owners" in application "Team Wiki", which has not been added',
    );
    expect(codeOf(() => app.addLocalRole({ name: 'Owner', permissions: ['Delete'] }))).toBe(
      'UNKNOWN_REFERENCE',
    );
    expect(
      codeOf(() =>
        b.grantRole({
          identity: 'Alice',
          identityType: 'local_user',
          application: 'Team Wiki',
          role: 'Editor',
        }),
      ),
    ).toBe('UNKNOWN_REFERENCE');
    expect(
      codeOf(() =>
        b.grantRole({ identity: 'Zed', identityType: 'local_user', application: 'Team Wiki', role: 'Admin' }),
      ),
    ).toBe('UNKNOWN_REFERENCE');
    expect(
      codeOf(() =>
        b.grantPermission({
          identity: 'Alice',
          identityType: 'local_user',
          application: 'Wiki',
          permission: 'View',
        }),
      ),
    ).toBe('UNKNOWN_REFERENCE');
    expect(
      codeOf(() =>
        b.grantPermission({
          identity: 'Alice',
          identityType: 'local_user',
          application: 'Team Wiki',
          permission: 'View',
          resources: ['Engineering.Specs'],
        }),
      ),
    ).toBe('UNKNOWN_REFERENCE');
  });
});

describe('IdentityProviderPayloadBuilder', () => {
  it('builds a valid payload and allows managers added later', () => {
    const b = new IdentityProviderPayloadBuilder({ name: 'Corp', idp_type: 'ldap' });
    b.setDomain({ name: 'corp.example.com' });
    b.addApp({ id: 'app-1', name: 'Wiki' });
    b.addGroup({ name: 'Everyone', identity: 'g-all' });
    b.addUser({ name: 'bob', identity: 'u-2', manager_id: 'u-1', groups: [{ identity: 'G-ALL' }] });
    b.addUser({ name: 'alice', identity: 'u-1', app_assignments: [{ id: 'a1', app_id: 'app-1' }] });
    expect(validate('identity_provider', b.build()).errors).toEqual([]);
  });
  it('reports a manager who was never added', () => {
    const b = new IdentityProviderPayloadBuilder({ name: 'Corp', idp_type: 'ldap' });
    b.addUser({ name: 'bob', identity: 'u-2', manager_id: 'u-9' });
    const err = (() => {
      try {
        b.build();
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).violations).toEqual([
      { field: 'users[0].manager_id', description: 'manager "u-9" is not the identity of a user' },
    ]);
  });
});

describe('HrisPayloadBuilder', () => {
  const base = { employment_status: 'ACTIVE', is_active: true } as const;
  it('builds a valid payload', () => {
    const b = new HrisPayloadBuilder({
      name: 'Acme',
      hris_type: 'acme',
      system: { id: 'acme', name: 'Acme HR' },
    });
    b.defineProperty('employee', 'badge', 'NUMBER');
    b.addGroup({ id: 'eng', name: 'Engineering', group_type: 'Department' });
    b.addEmployee({
      id: 'E2',
      name: 'Bob J',
      employee_number: '2',
      first_name: 'Bob',
      last_name: 'J',
      managers: [{ id: 'E1' }],
      department: { id: 'ENG' },
      ...base,
    });
    b.addEmployee({
      id: 'E1',
      name: 'Al S',
      employee_number: '1',
      first_name: 'Al',
      last_name: 'S',
      custom_properties: { badge: 7 },
      ...base,
    });
    expect(validate('hris', b.build()).errors).toEqual([]);
  });
  it('refuses an unknown department and reports a missing manager', () => {
    const b = new HrisPayloadBuilder({
      name: 'Acme',
      hris_type: 'acme',
      system: { id: 'acme', name: 'Acme HR' },
    });
    expect(() =>
      b.addEmployee({
        id: 'E1',
        name: 'A',
        employee_number: '1',
        first_name: 'A',
        last_name: 'B',
        department: { id: 'hr' },
        ...base,
      }),
    ).toThrow('employee "E1" references group "hr", which has not been added');
    b.addEmployee({
      id: 'E2',
      name: 'B',
      employee_number: '2',
      first_name: 'B',
      last_name: 'C',
      managers: [{ id: 'E7' }],
      ...base,
    });
    expect(() => b.build()).toThrow(ValidationError);
  });
});

describe('a refused entity leaves the builder unchanged', () => {
  it('does not register a role whose permission is unknown', () => {
    const { b, app } = wikiBuilder();
    expect(() => app.addLocalRole({ name: 'Owner', permissions: ['Delete'] })).toThrow(OaaError);
    expect(() =>
      b.grantRole({ identity: 'Alice', identityType: 'local_user', application: 'Team Wiki', role: 'Owner' }),
    ).toThrow('local role "Owner"');
    expect(b.build().applications[0]!.local_roles!.map((r) => r.name)).toEqual(['Admin']);
  });
});

describe('streamed entities', () => {
  it('produces users and grants from re-iterable sources when the payload is read', async () => {
    const { b, app } = wikiBuilder();
    const made = { count: 0 };
    app.addLocalUsers({
      *[Symbol.iterator]() {
        for (let i = 0; i < 3; i++) {
          made.count++;
          yield { name: `bulk${i}`, groups: ['Viewers'] };
        }
      },
    });
    b.addIdentityToPermissions([
      {
        identity: 'bulk1',
        identity_type: 'local_user',
        role_assignments: [{ application: 'Team Wiki', role: 'Admin', apply_to_application: true }],
      },
    ]);
    const payload = b.build();
    expect(validate('application', payload).errors).toEqual([]);
    const { jsonChunks } = await import('../serialize/json-chunks.js');
    let text = '';
    for await (const chunk of jsonChunks(payload)) text += chunk.toString();
    const parsed = JSON.parse(text);
    expect(parsed.applications[0].local_users.map((u: { name: string }) => u.name)).toEqual([
      'Alice',
      'Bob',
      'bulk0',
      'bulk1',
      'bulk2',
    ]);
    expect(parsed.identity_to_permissions).toHaveLength(1);
    expect(made.count).toBe(6); // generated once for validation, once for serialization, never stored
  });

  it('refuses to read a one-shot generator twice rather than dropping its users', () => {
    const { b, app } = wikiBuilder();
    app.addLocalUsers(
      (function* () {
        yield { name: 'once' };
      })(),
    );
    const payload = b.build();
    expect(validate('application', payload).errors).toEqual([]);
    expect(() => validate('application', payload)).toThrow(/one-shot source of local users was read twice/);
  });

  it('finds a streamed user invalid in validate, with its index', () => {
    const { b, app } = wikiBuilder();
    app.addLocalUsers([{ name: 'x', groups: ['Nobody'] }]);
    expect(validate('application', b.build()).errors).toEqual([
      {
        field: 'applications[0].local_users[2].groups[0]',
        description: 'local group "Nobody" does not exist in application "Team Wiki"',
      },
    ]);
  });
});
