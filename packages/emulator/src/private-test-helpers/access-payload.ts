/**
 * An application payload shaped like a real organisation's access, for the graph explorer tests:
 * users in groups, groups holding roles on resources, roles made of permissions. `bob` is in
 * `engineering`, which holds `maintainer` on `repo-0` (read, write); everyone else is numbered.
 */

/** Sizes of the generated payload; the total node count is about the sum. */
export interface AccessPayloadSize {
  users: number;
  groups: number;
  roles: number;
  resources: number;
}

/** The payload; `users + groups + roles + resources + 3` nodes and a few edges per user. */
export function accessPayload(size: AccessPayloadSize): Record<string, unknown> {
  const users: Record<string, unknown>[] = [
    { name: 'bob', identities: ['bob@example.com'], groups: ['engineering'], is_active: true },
    { name: 'carol', identities: ['carol@example.com'], groups: ['finance'], is_active: true },
  ];
  for (let i = 0; i < size.users; i++)
    users.push({ name: `user-${i}`, groups: [`group-${i % size.groups}`, `group-${(i * 7) % size.groups}`] });
  const groups: Record<string, unknown>[] = [{ name: 'engineering' }, { name: 'finance' }];
  for (let i = 0; i < size.groups; i++) groups.push({ name: `group-${i}` });
  const roles: Record<string, unknown>[] = [
    { name: 'maintainer', permissions: ['read', 'write'] },
    { name: 'auditor', permissions: ['read'] },
  ];
  for (let i = 0; i < size.roles; i++)
    roles.push({ name: `role-${i}`, permissions: i % 2 ? ['read'] : ['read', 'write'] });
  const resources: Record<string, unknown>[] = [];
  for (let i = 0; i < size.resources; i++) resources.push({ name: `repo-${i}`, resource_type: 'repo' });
  const grants: Record<string, unknown>[] = [
    {
      identity: 'engineering',
      identity_type: 'local_group',
      role_assignments: [{ application: 'acme', role: 'maintainer', resources: ['repo-0'] }],
    },
    {
      identity: 'finance',
      identity_type: 'local_group',
      role_assignments: [{ application: 'acme', role: 'auditor', apply_to_application: true }],
    },
  ];
  for (let i = 0; i < size.groups; i++) {
    grants.push({
      identity: `group-${i}`,
      identity_type: 'local_group',
      role_assignments: [
        {
          application: 'acme',
          role: `role-${i % size.roles}`,
          resources: [`repo-${i % size.resources}`, `repo-${(i * 13 + 1) % size.resources}`],
        },
      ],
    });
  }
  return {
    applications: [
      {
        name: 'acme',
        application_type: 'acme',
        local_users: users,
        local_groups: groups,
        local_roles: roles,
        resources,
      },
    ],
    permissions: [
      { name: 'read', permission_type: ['DataRead'] },
      { name: 'write', permission_type: ['DataWrite'] },
    ],
    identity_to_permissions: grants,
  };
}
