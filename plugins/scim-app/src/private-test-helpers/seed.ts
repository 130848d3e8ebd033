/** Seeded SCIM users and groups for the tests. */
import { ENTERPRISE_USER } from '../scim-resources.js';
import type { SeedResource } from './scim-server.js';

/**
 * A small directory: alice (everything set), bob (managed by alice), carol (only a userName), dave
 * (inactive, one email without `primary`); Engineering contains alice, bob and the nested group
 * Backend; Backend contains carol (member without `type`); Auditors has no members.
 */
export function directory(): { users: SeedResource[]; groups: SeedResource[] } {
  const users: SeedResource[] = [
    {
      id: 'u-alice',
      userName: 'alice',
      displayName: 'Alice Liddell',
      active: true,
      meta: { created: new Date('2023-04-05T06:07:08Z') },
      // The primary email is listed second on purpose: the connector puts it first.
      emails: [
        { value: 'alice@home.example', type: 'home' },
        { value: 'alice@example.com', type: 'work', primary: true },
      ],
      roles: [{ value: 'Admin', display: 'Administrator' }],
      entitlements: [{ value: 'repo:write' }, { value: 'repo:read' }],
      [ENTERPRISE_USER]: { employeeNumber: 'E001', department: 'Engineering' },
    },
    {
      id: 'u-bob',
      userName: 'bob',
      displayName: 'Bob Builder',
      active: true,
      emails: [{ value: 'bob@example.com', type: 'work', primary: true }],
      roles: [{ value: 'Developer' }],
      entitlements: [{ value: 'repo:read' }],
      [ENTERPRISE_USER]: { employeeNumber: 'E002', department: 'Engineering', manager: { value: 'u-alice' } },
    },
    { id: 'u-carol', userName: 'carol' },
    { id: 'u-dave', userName: 'dave', active: false, emails: [{ value: 'dave@example.com' }] },
  ];
  const groups: SeedResource[] = [
    {
      id: 'g-eng',
      displayName: 'Engineering',
      members: [
        { value: 'u-alice', type: 'User' },
        { value: 'u-bob', type: 'User' },
        { value: 'g-backend', type: 'Group' },
      ],
    },
    { id: 'g-backend', displayName: 'Backend', members: [{ value: 'u-carol' }] },
    { id: 'g-auditors', displayName: 'Auditors' },
  ];
  return { users, groups };
}

/** `n` users `user01`, `user02`, ... with one role each, for paging tests. */
export function manyUsers(n: number): SeedResource[] {
  return Array.from({ length: n }, (_, i) => {
    const name = `user${String(i + 1).padStart(2, '0')}`;
    return {
      id: `id-${name}`,
      userName: name,
      emails: [{ value: `${name}@example.com`, primary: true }],
      roles: [{ value: 'Member' }],
    };
  });
}
