/**
 * `bench-app-N`, the payload every throughput and memory benchmark pushes, so that figures compare
 * across runs: one deterministic `application` with N local users (each in one or two of the
 * max(1, N/100) groups, holding one of 50 roles on the application), 20 permissions, 50 roles of five
 * permissions each, and max(1, N/10) resources with two sub-resources each; each group holds one
 * permission on one resource. It is built through the public builder API so the benchmark measures
 * what a connector author would write; the group grants come after the users' role assignments.
 */
import {
  ApplicationPayloadBuilder,
  type ApplicationPayload,
  type LocalUser,
  type PermissionType,
} from '@oaakit/core';

const PERMISSION_TYPES: PermissionType[] = ['DataRead', 'DataWrite', 'MetadataRead', 'NonData'];

/**
 * `streamed`: users and grants come from re-iterable sources (never all in memory);
 * `materialized`: every user and grant is added one by one and held in memory.
 */
export type BenchMode = 'streamed' | 'materialized';

export function buildBenchApp(n: number, mode: BenchMode = 'streamed'): ApplicationPayload {
  const groupCount = Math.max(1, Math.floor(n / 100));
  const resourceCount = Math.max(1, Math.floor(n / 10));
  const b = new ApplicationPayloadBuilder();
  for (let p = 0; p < 20; p++)
    b.addPermission({ name: `perm${p}`, permission_type: [PERMISSION_TYPES[p % 4]!] });
  const app = b.addApplication({ name: 'bench', application_type: 'bench' });
  app.defineProperty('local_user', 'department', 'STRING');
  // Like a real connector, users reference the role, group and department names read once.
  const roles = Array.from({ length: 50 }, (_, r) => `role${r}`);
  const groups = Array.from({ length: groupCount }, (_, g) => `group${g}`);
  const departments = Array.from({ length: 50 }, (_, d) => `dept${d}`);
  for (let r = 0; r < 50; r++) {
    const permissions: string[] = [];
    for (let k = 0; k < 5; k++) permissions.push(`perm${(r + k) % 20}`);
    app.addLocalRole({ name: roles[r]!, permissions });
  }
  for (const name of groups) app.addLocalGroup({ name });
  for (let k = 0; k < resourceCount; k++) {
    const res = app.addResource({ name: `res${k}`, resource_type: 'repo' });
    res.addSubResource({ name: `res${k}-branch0`, resource_type: 'branch' });
    res.addSubResource({ name: `res${k}-branch1`, resource_type: 'branch' });
  }
  const user = (i: number): LocalUser => {
    const a = groups[i % groupCount]!;
    const c = groups[(7 * i) % groupCount]!;
    const name = `user${i}`;
    return {
      name,
      identities: [`${name}@example.com`],
      groups: a === c ? [a] : a < c ? [a, c] : [c, a],
      is_active: i % 10 !== 0,
      created_at: '2024-01-01T00:00:00Z',
      last_login_at: '2026-11-01T00:00:00Z',
      custom_properties: { department: departments[i % 50]! },
    };
  };
  if (mode === 'materialized') {
    for (let i = 0; i < n; i++) {
      const u = app.addLocalUser(user(i));
      b.grantRole({
        identity: u.name,
        identityType: 'local_user',
        application: 'bench',
        role: roles[i % 50]!,
        applyToApplication: true,
      });
    }
  } else {
    // Re-iterable sources: users and their grants are produced each time the payload is read.
    app.addLocalUsers({
      *[Symbol.iterator]() {
        for (let i = 0; i < n; i++) yield user(i);
      },
    });
    // Users holding the same role share one (frozen) assignment list, as the builder's grants do.
    const assignments = roles.map((role) => {
      const list = [{ application: 'bench', role, apply_to_application: true }];
      Object.freeze(list[0]);
      Object.freeze(list);
      return list;
    });
    b.addIdentityToPermissions({
      *[Symbol.iterator]() {
        for (let i = 0; i < n; i++)
          yield {
            identity: `user${i}`,
            identity_type: 'local_user' as const,
            role_assignments: assignments[i % 50]!,
          };
      },
    });
  }
  for (let g = 0; g < groupCount; g++) {
    b.grantPermission({
      identity: groups[g]!,
      identityType: 'local_group',
      application: 'bench',
      permission: `perm${g % 20}`,
      resources: [`res${g % resourceCount}`],
    });
  }
  return b.build();
}
