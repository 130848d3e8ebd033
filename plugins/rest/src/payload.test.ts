/**
 * What the payload section makes, run through the runner (`runConnector` dry run: the payload is
 * validated as `oaa run` validates it): the permission lookup table and its error listing every
 * unmapped name, resources nested by their parent with reference paths for grants, grants merged
 * per identity, the identity_provider and hris templates, and a mapping's error at its line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manifestConnector } from './connector.js';
import { compileManifestText } from './manifest/load.js';
import { dryRun } from './private-test-helpers/scim.js';
import { serve, type Source } from './private-test-helpers/source.js';

let source: Source | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

/** A tracker: projects (a tree), roles with permissions, users, and memberships per project. */
const TRACKER: Record<string, unknown> = {
  '/projects.json': {
    projects: [
      { id: 1, name: 'Platform', is_public: true },
      { id: 2, name: 'API', parent: { id: 1 }, is_public: false },
      { id: 3, name: 'Docs', parent: { id: 2 }, is_public: true },
    ],
  },
  '/roles.json': {
    roles: [
      { id: 10, name: 'Manager', permissions: ['view_issues', 'add_issues', 'manage_members'] },
      { id: 11, name: 'Reporter', permissions: ['view_issues', 'add_issues'] },
    ],
  },
  '/users.json': {
    users: [
      { id: 100, login: 'ada', api_key: 'ada-key-1' },
      { id: 101, login: 'bob' },
    ],
  },
  '/projects/1/memberships.json': { memberships: [{ user: { id: 100 }, roles: [{ id: 10 }] }] },
  '/projects/2/memberships.json': {
    memberships: [
      { user: { id: 100 }, roles: [{ id: 11 }, { id: 10, inherited: true }] },
      { user: { id: 101 }, roles: [{ id: 11 }] },
    ],
  },
  '/projects/3/memberships.json': { memberships: [{ user: { id: 101 }, roles: [{ id: 10 }] }] },
};

function tracker(permissionTypes: string): string {
  return `version: 1
id: tracker
vars:
  url: { description: the tracker }
source:
  base_url: '{{ vars.url }}'
streams:
  projects: { path: /projects.json, records: projects }
  roles: { path: /roles.json, records: roles }
  users: { path: /users.json, records: users, drop: [api_key] }
  memberships:
    for_each: projects
    concurrency: 2
    path: /projects/{{ record.id }}/memberships.json
    records: memberships
indexes:
  role_name: { stream: roles, key: id, value: name }
  login: { stream: users, key: id, value: login }
payload:
  template: application
  application: '{ "name": "Tracker", "application_type": "Tracker" }'
  properties:
    resources:
      project: { is_public: BOOLEAN }
  permission_types:
${permissionTypes}
  merge_grants: true
  local_users: { stream: users, map: '{ "name": login, "unique_id": $string(id) }' }
  local_roles: { stream: roles, map: '{ "name": name, "permissions": permissions }' }
  permissions: { stream: roles, map: permissions, distinct: true }
  resources:
    stream: projects
    parent: $string(parent.id)
    map: '{ "name": name, "id": $string(id), "resource_type": "project", "custom_properties": { "is_public": is_public } }'
  grants:
    stream: memberships
    map: |
      {
        "identity": $index('login', user.id)[0],
        "identity_type": "local_user",
        "role_assignments": [roles[$not(inherited = true)].{
          "application": "Tracker",
          "role": $index('role_name', id)[0],
          "resources": [$resource($string($parent.id))]
        }]
      }
`;
}

const ALL_TYPES = `    view_issues: [DataRead]
    add_issues: [DataCreate]
    manage_members: [MetadataWrite]`;

async function runTracker(permissionTypes: string) {
  source = await serve((req) => {
    const body = TRACKER[req.path];
    return body === undefined ? { status: 404, json: {} } : { json: body };
  });
  const connector = manifestConnector(compileManifestText(tracker(permissionTypes), 'tracker.yaml'));
  return dryRun(connector, { manifest: 'tracker.yaml', vars: { url: source.url } }, {});
}

describe('the payload', () => {
  it('nests resources by parent, names them by reference path in grants, and merges grants per identity', async () => {
    const { result, payload } = await runTracker(ALL_TYPES);
    expect(result.validationWarnings).toEqual([]);
    expect(result.counts).toMatchObject({ local_users: 2, local_roles: 2, permissions: 3, resources: 3 });
    const [app] = payload['applications'] as {
      resources: { name: string; id: string; sub_resources?: unknown[] }[];
      local_users: Record<string, unknown>[];
    }[];
    expect(app!.resources).toEqual([
      {
        name: 'Platform',
        id: '1',
        resource_type: 'project',
        custom_properties: { is_public: true },
        sub_resources: [
          {
            name: 'API',
            id: '2',
            resource_type: 'project',
            custom_properties: { is_public: false },
            sub_resources: [
              { name: 'Docs', id: '3', resource_type: 'project', custom_properties: { is_public: true } },
            ],
          },
        ],
      },
    ]);
    expect(payload['identity_to_permissions']).toEqual([
      {
        identity: 'ada',
        identity_type: 'local_user',
        role_assignments: [
          { application: 'Tracker', role: 'Manager', resources: ['1'] },
          // The inherited Manager row on project 2 is no grant of its own.
          { application: 'Tracker', role: 'Reporter', resources: ['1.2'] },
        ],
      },
      {
        identity: 'bob',
        identity_type: 'local_user',
        role_assignments: [
          { application: 'Tracker', role: 'Reporter', resources: ['1.2'] },
          { application: 'Tracker', role: 'Manager', resources: ['1.2.3'] },
        ],
      },
    ]);
    expect(payload['permissions']).toEqual([
      { name: 'view_issues', permission_type: ['DataRead'] },
      { name: 'add_issues', permission_type: ['DataCreate'] },
      { name: 'manage_members', permission_type: ['MetadataWrite'] },
    ]);
    // Dropped fields are gone before any mapping sees them.
    expect(JSON.stringify(payload)).not.toContain('ada-key-1');
    expect(payload['custom_property_definition']).toEqual({
      applications: [
        {
          application_type: 'Tracker',
          resources: [{ resource_type: 'project', properties: { is_public: 'BOOLEAN' } }],
        },
      ],
    });
  });

  it('lists every permission name the lookup table lacks, in one error', async () => {
    const error = await runTracker('    view_issues: [DataRead]').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'EXTRACT_FAILED',
      details: { causeCode: 'PERMISSIONS_UNMAPPED', cause: { unmapped: ['add_issues', 'manage_members'] } },
    });
    expect((error as Error).message).toContain(
      '2 permission names the source uses are not in payload.permission_types (tracker.yaml:26): add_issues, manage_members',
    );
  });
});

describe('other templates', () => {
  it('identity_provider: users and groups with their custom properties', async () => {
    source = await serve(() => ({
      json: {
        data: [
          { id: 'u1', email: 'ada@example.com', groups: ['eng'], active: true, title: 'CTO' },
          { id: 'u2', email: 'bob@example.com', groups: ['eng', 'ops'], active: false },
        ],
      },
    }));
    const text = `version: 1
id: directory
vars:
  url: { description: the directory }
source:
  base_url: '{{ vars.url }}'
streams:
  people: { path: /people, records: data }
payload:
  template: identity_provider
  identity_provider: '{ "name": "Directory", "idp_type": "Directory" }'
  properties:
    user: { title: STRING }
  # One domain, evaluated once: no stream.
  domains: { map: '{ "name": "example.com" }' }
  users:
    stream: people
    map: |
      {
        "name": email, "identity": id, "email": email, "is_active": active,
        "groups": [groups.{ "identity": $ }],
        "custom_properties": { "title": title }
      }
  groups:
    stream: people
    distinct: true
    map: 'groups.{ "name": $, "identity": $ }'
`;
    const connector = manifestConnector(compileManifestText(text, 'directory.yaml'));
    const { result, payload } = await dryRun(
      connector,
      { manifest: 'directory.yaml', vars: { url: source.url } },
      {},
    );
    expect(result).toMatchObject({
      template: 'identity_provider',
      counts: { domains: 1, users: 2, groups: 2 },
    });
    expect(payload).toMatchObject({
      name: 'Directory',
      groups: [
        { name: 'eng', identity: 'eng' },
        { name: 'ops', identity: 'ops' },
      ],
      custom_property_definition: { user_properties: { title: 'STRING' } },
    });
  });

  it('hris: employees mapped from a page of people', async () => {
    source = await serve(() => ({
      json: [{ id: 7, first: 'Ada', last: 'Lovelace', mail: 'ada@example.com', start: '2020-01-02' }],
    }));
    const text = `version: 1
id: people
vars:
  url: { description: the HR system }
source:
  base_url: '{{ vars.url }}'
streams:
  employees: { path: /employees }
payload:
  template: hris
  hris: '{ "name": "People", "hris_type": "People", "system": { "id": "people", "name": "People" } }'
  employees:
    stream: employees
    map: |
      {
        "id": $string(id), "name": first & " " & last, "employee_number": $string(id),
        "first_name": first, "last_name": last, "email": mail, "employment_status": "ACTIVE",
        "is_active": true, "start_date": $timestamp(start)
      }
`;
    const connector = manifestConnector(compileManifestText(text, 'people.yaml'));
    const { result, payload } = await dryRun(
      connector,
      { manifest: 'people.yaml', vars: { url: source.url } },
      {},
    );
    expect(result).toMatchObject({ template: 'hris', counts: { employees: 1 } });
    expect((payload['employees'] as unknown[])[0]).toMatchObject({
      name: 'Ada Lovelace',
      start_date: '2020-01-02T00:00:00.000Z',
    });
  });
});

describe('fields added to records', () => {
  const withFields = (field: string) => `version: 1
id: fields
vars:
  url: { description: the source }
source:
  base_url: '{{ vars.url }}'
streams:
  users:
    path: /users
    drop: [secret]
    fields:
      role_names: ${field}
      has_email: $exists(email)
    cache: true
indexes:
  by_role: { stream: users, key: role_names, value: login, ignore_case: true }
payload:
  template: application
  application: '{ "name": "F", "application_type": "F" }'
  local_users: { stream: users, map: '{ "name": login, "is_active": has_email }' }
  local_roles: { stream: users, map: role_names, distinct: true }
  grants:
    stream: users
    map: |
      {
        "identity": login,
        "identity_type": "local_user",
        "role_assignments": [role_names.{ "application": "F", "role": $, "apply_to_application": true }]
      }
`;
  const USERS = [
    { login: 'ada', email: 'ada@example.com', roles: ['Admin', 'admin', 'Reader'], secret: 's1' },
    { login: 'bob', roles: [] },
  ];

  it('are computed once per record and read by mappings and indexes as any field', async () => {
    let reads = 0;
    source = await serve(() => {
      reads += 1;
      return { json: USERS };
    });
    const text = withFields('$distinctNames(roles)');
    const connector = manifestConnector(compileManifestText(text, 'fields.yaml'));
    const { payload } = await dryRun(connector, { manifest: 'fields.yaml', vars: { url: source.url } }, {});
    const [app] = payload['applications'] as {
      local_users: { name: string; is_active: boolean }[];
      local_roles: { name: string }[];
    }[];
    expect(app!.local_users.map((u) => [u.name, u.is_active])).toEqual([
      ['ada', true],
      ['bob', false],
    ]);
    // The field is the list the expression made (each name once, without regard to case).
    expect(app!.local_roles.map((r) => r.name)).toEqual(['Admin', 'Reader']);
    expect(payload['identity_to_permissions']).toEqual([
      {
        identity: 'ada',
        identity_type: 'local_user',
        role_assignments: [
          { application: 'F', role: 'Admin', apply_to_application: true },
          { application: 'F', role: 'Reader', apply_to_application: true },
        ],
      },
      { identity: 'bob', identity_type: 'local_user', role_assignments: [] },
    ]);
    expect(reads).toBe(1);
  });

  it('a field whose expression fails names its path and line', async () => {
    source = await serve(() => ({ json: USERS }));
    const connector = manifestConnector(compileManifestText(withFields('roles + 1'), 'fields.yaml'));
    const error = await dryRun(connector, { manifest: 'fields.yaml', vars: { url: source.url } }, {}).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(
      /fields\.yaml:12:\d+: streams\.users\.fields\.role_names: .* \(adding the field role_names to a record of stream users\)/,
    );
  });
});

describe('mapping errors', () => {
  it('name the manifest path and the line of the failing expression, and the record', async () => {
    source = await serve(() => ({ json: [{ login: 'ada', age: 'old' }] }));
    const text = `version: 1
id: broken
vars:
  url: { description: the source }
source:
  base_url: '{{ vars.url }}'
streams:
  users: { path: /users }
payload:
  template: application
  application: '{ "name": "B", "application_type": "B" }'
  local_users:
    stream: users
    map: |
      {
        "name": login,
        "custom_properties": { "next_age": age + 1 }
      }
`;
    const connector = manifestConnector(compileManifestText(text, 'broken.yaml'));
    const error = await dryRun(connector, { manifest: 'broken.yaml', vars: { url: source.url } }, {}).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'EXTRACT_FAILED', details: { causeCode: 'REST_MAPPING_FAILED' } });
    expect((error as Error).message).toMatch(
      /broken\.yaml:17:\d+: payload\.local_users\.map: The left side of the "\+" operator must evaluate to a number \(mapping a record of stream users\)/,
    );
  });
});
