/**
 * Local roles of an application: their permissions (`ROLE_HAS_PERMISSION`) and nested roles
 * (`ROLE_HAS_ROLE`, outer to inner). Whoever holds a role gets its nested roles' permissions, so the
 * outer role also gets a `ROLE_HAS_PERMISSION` edge to each of those, marked `inherited` with the
 * nested role it comes from (`via_role`): a reader finds a role holder's effective permissions by
 * following `HAS_ROLE` then `ROLE_HAS_PERMISSION`, without walking the nesting.
 */
import type { LocalRole } from '@oaakit/core';
import type { AppScope, PermissionNodes, RoleEntry } from './app-scope.js';
import { localKey } from './local-index.js';
import { entityProperties, fold } from './properties.js';
import type { GraphWriter } from './writer.js';

const ROLE_SKIP = new Set(['roles']);

interface Written {
  role: LocalRole;
  entry: RoleEntry;
  /** The role's own permissions (`entry.permissions` gets the nested ones added). */
  direct: PermissionNodes[];
  inner: RoleEntry[];
}

/** Writes `roles` into `app.roles`; returns each role's node row id with the role, for owners. */
export function writeRoles(
  w: GraphWriter,
  app: AppScope,
  roles: readonly LocalRole[],
  warnings: string[],
): [number, LocalRole][] {
  const written: Written[] = [];
  const appKey = fold(app.name);
  for (const r of roles) {
    if (app.roles.holds(r)) continue;
    const rid = w.node({
      kind: 'role',
      key: `${appKey}/${localKey(r)}`,
      type: `OAA.${app.type}.Role`,
      name: r.name,
      parent: app.rid,
      properties: entityProperties(r, ROLE_SKIP),
      tags: r.tags,
    });
    const direct: PermissionNodes[] = [];
    for (const name of r.permissions ?? []) {
      const perm = app.permissions.get(fold(name));
      if (!perm) {
        warnings.push(`role ${JSON.stringify(r.name)} names unknown permission ${JSON.stringify(name)}`);
        continue;
      }
      direct.push(perm);
      for (const n of perm.nodes) w.edge(rid, n.rid, 'ROLE_HAS_PERMISSION');
    }
    const entry: RoleEntry = { rid, name: r.name, permissions: [...direct] };
    app.roles.add(r, entry);
    written.push({ role: r, entry, direct, inner: [] });
  }
  // Nested roles resolve once every role is known, whatever the order.
  const byEntry = new Map<RoleEntry, Written>();
  for (const x of written) {
    byEntry.set(x.entry, x);
    for (const ref of x.role.roles ?? []) {
      const inner = app.roles.get(ref);
      if (inner === undefined)
        warnings.push(`role ${JSON.stringify(x.role.name)} names unknown role ${JSON.stringify(ref)}`);
      else {
        x.inner.push(inner);
        w.edge(x.entry.rid, inner.rid, 'ROLE_HAS_ROLE');
      }
    }
  }
  for (const x of written) if (x.inner.length > 0) inheritPermissions(w, x, byEntry);
  return written.map((x) => [x.entry.rid, x.role]);
}

/** Adds the permissions of every role nested in `outer` (at any depth) to `outer`. */
function inheritPermissions(w: GraphWriter, outer: Written, byEntry: ReadonlyMap<RoleEntry, Written>): void {
  const has = new Set(outer.direct);
  // Validation rejects cycles; `seen` keeps a cycle from looping all the same.
  const seen = new Set<RoleEntry>([outer.entry]);
  const stack = [...outer.inner];
  while (stack.length > 0) {
    const inner = byEntry.get(stack.pop()!)!;
    if (seen.has(inner.entry)) continue;
    seen.add(inner.entry);
    for (const perm of inner.direct) {
      if (has.has(perm)) continue;
      has.add(perm);
      outer.entry.permissions.push(perm);
      for (const n of perm.nodes)
        w.edge(outer.entry.rid, n.rid, 'ROLE_HAS_PERMISSION', {
          props: { inherited: true, via_role: inner.entry.name },
        });
    }
    stack.push(...inner.inner);
  }
}
