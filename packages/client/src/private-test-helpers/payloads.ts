/** Application payloads for push tests. */
import { randomBytes } from 'node:crypto';

/** A name that gzip cannot shrink much: random base64url text. */
export function randomName(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export interface LocalUserLike {
  name: string;
  groups: string[];
}

/** An application whose users are all in the group `staff`; `users` may be an async iterable. */
export function appPayload(users: LocalUserLike[] | AsyncIterable<LocalUserLike>): Record<string, unknown> {
  return {
    applications: [
      {
        name: 'wiki',
        application_type: 'Wiki',
        local_users: users,
        local_groups: [{ name: 'staff' }],
        local_roles: [{ name: 'viewer', permissions: ['View'] }],
        resources: [{ name: 'space', resource_type: 'Space' }],
      },
    ],
    permissions: [{ name: 'View', permission_type: ['DataRead'] }],
    identity_to_permissions: [
      {
        identity: 'staff',
        identity_type: 'local_group',
        role_assignments: [{ application: 'wiki', role: 'viewer', apply_to_application: true }],
      },
    ],
  };
}

/** `n` users with random names, all in `staff`. */
export function randomUsers(n: number): LocalUserLike[] {
  return Array.from({ length: n }, () => ({ name: randomName(), groups: ['staff'] }));
}
