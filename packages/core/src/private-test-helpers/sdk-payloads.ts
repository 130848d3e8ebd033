/**
 * Small payloads in the shape the vendor's Python SDK (oaaclient 1.1.15) emits them (every key it
 * always sends, `null` descriptions, empty lists), for tests that add one SDK field at a time.
 * Test-only; not exported from the package.
 */

/** An application payload as `CustomApplication.get_payload()` emits one with a single user. */
export function sdkApplication(): Record<string, any> {
  return {
    custom_property_definition: { applications: [{ application_type: 'sdk' }] },
    applications: [
      {
        name: 'app',
        application_type: 'sdk',
        description: null,
        local_users: [{ name: 'alice', identities: ['alice@example.com'] }],
        local_groups: [],
        local_roles: [],
        local_access_creds: [],
        tags: [],
        custom_properties: {},
        resources: [],
      },
    ],
    permissions: [
      { name: 'read', permission_type: ['DataRead'], apply_to_sub_resources: false, resource_types: [] },
    ],
    identity_to_permissions: [],
  };
}

/** An identity_provider payload as `CustomIdPProvider.get_payload()` emits one with a single user. */
export function sdkIdentityProvider(): Record<string, any> {
  return {
    custom_property_definition: {
      domain_properties: {},
      user_properties: {},
      group_properties: {},
      app_properties: {},
      app_assignment_properties: {},
    },
    name: 'idp',
    idp_type: 'sdk_idp',
    domains: [{ name: 'example.com', tags: [], custom_properties: {} }],
    users: [{ name: 'alice', identity: 'alice' }],
    groups: [],
    apps: [],
  };
}

/** An hris payload as `HRISProvider.get_payload()` emits one with a single employee. */
export function sdkHris(): Record<string, any> {
  return {
    name: 'hr',
    hris_type: 'sdk_hris',
    custom_property_definition: { system_properties: {}, employee_properties: {}, group_properties: {} },
    system: { id: 'hr', name: 'hr', url: null, idp_providers: [] },
    employees: [
      {
        id: 'e1',
        name: 'Alice',
        employee_number: '1',
        first_name: 'Alice',
        last_name: 'Smith',
        employment_status: 'ACTIVE',
        is_active: true,
      },
    ],
    groups: [],
  };
}
