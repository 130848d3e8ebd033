/**
 * The "every field" payloads (`packages/core/fixtures/sdk-fields/*.json`) are what the builders
 * produce: `src/private-test-helpers/sdk-fields.ts` builds one payload per template with every key the vendor
 * SDK (oaaclient 1.1.15) can put into one, and this test checks that it still produces exactly the
 * committed files, byte for byte (formatted by the repository's prettier settings), so the files
 * cannot drift from the builders. After a deliberate change to the builders or to the generator,
 * write the files again with
 *
 *   OAA_WRITE_FIXTURES=1 npx vitest run packages/core/src/builders/sdk-fields.test.ts
 *
 * and review the diff before committing it. The core, emulator and end-to-end tests read the files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { SDK_FIELD_TEMPLATES, sdkFieldsPayload } from '../private-test-helpers/sdk-fields.js';

const DIR = fileURLToPath(new URL('../../fixtures/sdk-fields/', import.meta.url));

async function formatted(file: string, payload: unknown): Promise<string> {
  const options = (await resolveConfig(file)) ?? {};
  return format(JSON.stringify(payload), { ...options, filepath: file });
}

/** Every key path of `value`, array elements as `[]`, property-map keys left out (`*_properties.x`). */
function keyPaths(value: unknown, path = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keyPaths(v, `${path}[]`, out);
  else if (typeof value === 'object' && value !== null) {
    const isMap = /(^|\.)(custom_properties|\w+_properties|properties)$/.test(path);
    for (const [k, v] of Object.entries(value)) {
      if (isMap) continue;
      const p = path ? `${path}.${k}` : k;
      out.add(p);
      keyPaths(v, p, out);
    }
  }
  return out;
}

const ownersAt = (at: string) => [
  `${at}.owners`,
  `${at}.owners[].external_id`,
  `${at}.owners[].owner_type`,
  `${at}.owners[].primary`,
];
const tags = (at: string) => [at, `${at}[].key`, `${at}[].value`];
const resourceKeys = (at: string) => [
  `${at}.connections`,
  `${at}.connections[].id`,
  `${at}.connections[].node_type`,
  `${at}.custom_properties`,
  `${at}.description`,
  `${at}.id`,
  `${at}.name`,
  ...ownersAt(at),
  `${at}.resource_type`,
  ...tags(`${at}.tags`),
];

/**
 * The keys the SDK can emit, per template, except `id` on local users, groups and roles (which it
 * emits only when given a unique id; the SDK-built payloads these files reproduce gave none).
 */
const SDK_KEYS: Record<(typeof SDK_FIELD_TEMPLATES)[number], string[]> = {
  application: [
    'custom_property_definition',
    'custom_property_definition.applications',
    ...[
      'application_type',
      'application_properties',
      'local_user_properties',
      'local_group_properties',
      'local_role_properties',
      'role_assignment_properties',
      'local_access_creds_properties',
      'resources',
      'resources[].resource_type',
      'resources[].properties',
    ].map((k) => `custom_property_definition.applications[].${k}`),
    'applications',
    ...['name', 'application_type', 'description', 'custom_properties', 'resources', 'local_users']
      .concat(['local_groups', 'local_roles', 'local_access_creds'])
      .map((k) => `applications[].${k}`),
    ...tags('applications[].tags'),
    ...ownersAt('applications[]'),
    ...[
      'name',
      'email',
      'identities',
      'groups',
      'access_creds',
      'is_active',
      'created_at',
      'last_login_at',
      'deactivated_at',
      'password_last_changed_at',
      'user_type',
      'custom_properties',
    ].map((k) => `applications[].local_users[].${k}`),
    ...tags('applications[].local_users[].tags'),
    ...ownersAt('applications[].local_users[]'),
    ...['name', 'identities', 'created_at', 'groups', 'custom_properties'].map(
      (k) => `applications[].local_groups[].${k}`,
    ),
    ...tags('applications[].local_groups[].tags'),
    ...ownersAt('applications[].local_groups[]'),
    ...['name', 'permissions', 'roles', 'custom_properties'].map((k) => `applications[].local_roles[].${k}`),
    ...tags('applications[].local_roles[].tags'),
    ...ownersAt('applications[].local_roles[]'),
    ...[
      'id',
      'name',
      'is_active',
      'created_at',
      'expires_at',
      'last_used_at',
      'can_expire',
      'custom_properties',
    ].map((k) => `applications[].local_access_creds[].${k}`),
    ...tags('applications[].local_access_creds[].tags'),
    ...ownersAt('applications[].local_access_creds[]'),
    ...resourceKeys('applications[].resources[]'),
    'applications[].resources[].sub_resources',
    ...resourceKeys('applications[].resources[].sub_resources[]'),
    'applications[].resources[].sub_resources[].sub_resources',
    ...['id', 'name', 'resource_type'].map(
      (k) => `applications[].resources[].sub_resources[].sub_resources[].${k}`,
    ),
    'permissions',
    ...['name', 'permission_type', 'apply_to_sub_resources', 'resource_types'].map(
      (k) => `permissions[].${k}`,
    ),
    'identity_to_permissions',
    ...['identity', 'identity_type', 'application_permissions', 'role_assignments'].map(
      (k) => `identity_to_permissions[].${k}`,
    ),
    ...['application', 'permission', 'apply_to_application', 'resources'].map(
      (k) => `identity_to_permissions[].application_permissions[].${k}`,
    ),
    ...['application', 'role', 'apply_to_application', 'resources', 'custom_properties'].map(
      (k) => `identity_to_permissions[].role_assignments[].${k}`,
    ),
  ],
  identity_provider: [
    'name',
    'idp_type',
    'custom_property_definition',
    ...['domain', 'user', 'group', 'app', 'app_assignment'].map(
      (k) => `custom_property_definition.${k}_properties`,
    ),
    'domains',
    'domains[].name',
    'domains[].custom_properties',
    ...tags('domains[].tags'),
    'users',
    ...[
      'name',
      'email',
      'identity',
      'full_name',
      'department',
      'is_active',
      'is_guest',
      'manager_id',
      'groups',
      'groups[].identity',
      'assumed_role_arns',
      'assumed_role_arns[].identity',
      'source_identity',
      'source_identity.identity',
      'source_identity.provider_type',
      'custom_properties',
      'app_assignments',
      'app_assignments[].id',
      'app_assignments[].name',
      'app_assignments[].app_id',
      'app_assignments[].custom_properties',
      'identity_type',
    ].map((k) => `users[].${k}`),
    ...tags('users[].tags'),
    'groups',
    ...[
      'name',
      'identity',
      'full_name',
      'is_security_group',
      'assumed_role_arns',
      'assumed_role_arns[].identity',
      'groups',
      'groups[].identity',
      'source_identity',
      'source_identity.identity',
      'source_identity.provider_type',
      'custom_properties',
      'app_assignments',
      'app_assignments[].id',
      'app_assignments[].name',
      'app_assignments[].app_id',
      'app_assignments[].custom_properties',
    ].map((k) => `groups[].${k}`),
    ...tags('groups[].tags'),
    'apps',
    ...[
      'id',
      'name',
      'description',
      'assumed_role_arns',
      'assumed_role_arns[].identity',
      'custom_properties',
    ].map((k) => `apps[].${k}`),
    ...tags('apps[].tags'),
  ],
  hris: [
    'name',
    'hris_type',
    'custom_property_definition',
    ...['system', 'employee', 'group'].map((k) => `custom_property_definition.${k}_properties`),
    'system',
    ...['id', 'name', 'url', 'idp_providers'].map((k) => `system.${k}`),
    'employees',
    ...[
      'id',
      'name',
      'employee_number',
      'company',
      'first_name',
      'last_name',
      'preferred_name',
      'display_full_name',
      'canonical_name',
      'username',
      'email',
      'idp_id',
      'personal_email',
      'home_location',
      'work_location',
      'employment_status',
      'start_date',
      'termination_date',
      'job_title',
      'employment_types',
      'primary_time_zone',
      'custom_properties',
      'is_active',
      'groups',
      'groups[].id',
      'managers',
      'managers[].id',
      'department',
      'department.id',
      'cost_center',
      'cost_center.id',
    ].map((k) => `employees[].${k}`),
    'groups',
    ...['id', 'name', 'group_type', 'custom_properties'].map((k) => `groups[].${k}`),
  ],
};

describe('the every-field payloads built with the builders', () => {
  it.each(SDK_FIELD_TEMPLATES)(
    'fixtures/sdk-fields/%s.json is exactly what the builders produce',
    async (t) => {
      const file = `${DIR}${t}.json`;
      const expected = await formatted(file, sdkFieldsPayload(t));
      if (process.env.OAA_WRITE_FIXTURES === '1') writeFileSync(file, expected);
      expect(readFileSync(file, 'utf8')).toBe(expected);
    },
  );

  it.each(SDK_FIELD_TEMPLATES)('%s carries every key the vendor SDK emits, and no other', (t) => {
    expect([...keyPaths(sdkFieldsPayload(t))].sort()).toEqual([...SDK_KEYS[t]].sort());
  });
});
