/**
 * A three-data-source graph for effective-access tests: an identity provider (nested groups), an
 * application (nested local groups, nested roles, sub-resources, a `resource_types` permission, an
 * `idp` grant, identities linking local accounts to the identity provider) and an HRIS (employees
 * linked to identity-provider users by `idp_id`, then email). Expected access is written out by hand
 * in effective-access.test.ts.
 */
import type { Harness } from './harness.js';

export const IDP_PAYLOAD = {
  name: 'corp',
  idp_type: 'idp',
  domains: [{ name: 'corp.example' }],
  users: [
    { name: 'alice', email: 'alice@corp.example', identity: 'u-alice', groups: [{ identity: 'g-eng' }] },
    { name: 'bob', email: 'bob@corp.example', identity: 'u-bob' },
  ],
  groups: [
    { name: 'eng', identity: 'g-eng', groups: [{ identity: 'g-all' }] },
    { name: 'allstaff', identity: 'g-all' },
  ],
};

export const APP_PAYLOAD = {
  applications: [
    {
      name: 'wiki',
      application_type: 'wiki',
      local_users: [
        { name: 'alice.local', identities: ['alice@corp.example'], groups: ['writers'] },
        { name: 'carol' },
      ],
      local_groups: [
        { name: 'writers', groups: ['staff'] },
        { name: 'staff', identities: ['allstaff'] },
      ],
      local_roles: [
        { name: 'reader', permissions: ['view'] },
        { name: 'editor', permissions: ['edit'], roles: ['reader'] },
        { name: 'owner', permissions: ['admin_meta'], roles: ['editor'] },
      ],
      resources: [
        {
          name: 'S1',
          resource_type: 'space',
          sub_resources: [
            {
              name: 'P1',
              resource_type: 'page',
              sub_resources: [{ name: 'P1a', resource_type: 'page' }],
            },
          ],
        },
      ],
    },
  ],
  permissions: [
    { name: 'view', permission_type: ['DataRead'], apply_to_sub_resources: true },
    { name: 'edit', permission_type: ['DataWrite'] },
    { name: 'admin_meta', permission_type: ['MetadataRead', 'MetadataWrite'], resource_types: ['space'] },
    { name: 'delete', permission_type: ['DataDelete'] },
  ],
  identity_to_permissions: [
    {
      identity: 'staff',
      identity_type: 'local_group',
      role_assignments: [{ application: 'wiki', role: 'reader', resources: ['S1'] }],
    },
    {
      identity: 'writers',
      identity_type: 'local_group',
      role_assignments: [{ application: 'wiki', role: 'editor', resources: ['S1.P1'] }],
    },
    {
      identity: 'carol',
      identity_type: 'local_user',
      role_assignments: [
        { application: 'wiki', role: 'owner', resources: ['S1'], apply_to_application: true },
      ],
    },
    {
      identity: 'bob@corp.example',
      identity_type: 'idp',
      application_permissions: [{ application: 'wiki', permission: 'delete', apply_to_application: true }],
    },
    {
      identity: 'alice.local',
      identity_type: 'local_user',
      application_permissions: [{ application: 'wiki', permission: 'admin_meta', resources: ['S1.P1'] }],
    },
  ],
};

const employee = (id: string, extra: Record<string, unknown>) => ({
  id,
  name: id,
  employee_number: id,
  first_name: id,
  last_name: 'x',
  employment_status: 'ACTIVE',
  is_active: true,
  ...extra,
});

export const HRIS_PAYLOAD = {
  name: 'hr',
  hris_type: 'hr',
  system: { id: 'hr1', name: 'HR' },
  employees: [
    employee('E1', { idp_id: 'u-alice', email: 'nobody@corp.example' }),
    employee('E2', { email: 'bob@corp.example' }),
    employee('E3', { idp_id: 'u-missing', email: 'alice@corp.example' }),
    employee('E4', { idp_id: 'u-bob', email: 'alice@corp.example' }),
  ],
};

/** Pushes the three payloads (identity provider first) into fresh data sources. */
export async function pushAccessGraph(h: Harness): Promise<void> {
  for (const [template, payload] of [
    ['identity_provider', IDP_PAYLOAD],
    ['application', APP_PAYLOAD],
    ['hris', HRIS_PAYLOAD],
  ] as const) {
    const t = await h.target(template);
    const r = await h.push(t.base, payload);
    if (r.status !== 200) throw new Error(`push of ${template} failed: ${JSON.stringify(r.body)}`);
  }
}
