/**
 * The `bench-app-N` payload of shared/bench-spec.md, built through the public builder API so the
 * benchmark measures what a connector author would write.
 */
import { ApplicationPayloadBuilder, type ApplicationPayload, type PermissionType } from '@oaakit/core';

const PERMISSION_TYPES: PermissionType[] = ['DataRead', 'DataWrite', 'MetadataRead', 'NonData'];

export function buildBenchApp(n: number): ApplicationPayload {
  const groupCount = Math.max(1, Math.floor(n / 100));
  const resourceCount = Math.max(1, Math.floor(n / 10));
  const b = new ApplicationPayloadBuilder();
  for (let p = 0; p < 20; p++) b.addPermission({ name: `perm${p}`, permission_type: [PERMISSION_TYPES[p % 4]!] });
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
  for (let i = 0; i < n; i++) {
    const a = groups[i % groupCount]!;
    const c = groups[(7 * i) % groupCount]!;
    const name = `user${i}`;
    app.addLocalUser({
      name,
      identities: [`${name}@example.com`],
      groups: a === c ? [a] : a < c ? [a, c] : [c, a],
      is_active: i % 10 !== 0,
      created_at: '2024-01-01T00:00:00Z',
      last_login_at: '2026-11-01T00:00:00Z',
      custom_properties: { department: departments[i % 50]! },
    });
    b.grantRole({ identity: name, identityType: 'local_user', application: 'bench', role: roles[i % 50]!, applyToApplication: true });
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
