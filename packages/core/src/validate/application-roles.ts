/**
 * The local roles of one application: keys, permissions, nested roles (`roles`, resolved through
 * the roles' keys, with cycles found), custom properties, and the service's warning for a role
 * that grants nothing.
 */
import type { Application } from '../schemas/application.js';
import { toArray } from './collections.js';
import { checkOperation, type CheckContext } from './context.js';
import { addLocal, aliasLocal, localKey } from './local-keys.js';
import { findCycles, NameIndex } from './names.js';
import { checkCustomProperties, type PropertyDefinitions } from './properties.js';

/** What `checkRoles` needs. */
export interface RoleChecksInput {
  app: Application;
  /** `local_role_properties` of the application's type. */
  properties: PropertyDefinitions;
  /** The payload's top-level permissions. */
  permissions: NameIndex;
  ctx: CheckContext;
  incremental: boolean;
}

/** Checks `app.local_roles` (the context's path is the application's) and returns their index. */
export function checkRoles({ app, properties, permissions, ctx, incremental }: RoleChecksInput): NameIndex {
  const roles = new NameIndex('local role');
  const list = toArray(app.local_roles);
  const where = `local_role_properties of application type ${JSON.stringify(app.application_type)}`;
  const path = ctx.path;
  path.push('local_roles');
  list.forEach((r, i) => {
    path.push(i);
    addLocal(roles, r, i, ctx);
    checkOperation(ctx, incremental, r.operation);
    checkCustomProperties(r.custom_properties, properties, where, ctx);
    const perms = r.permissions ?? [];
    // A role that only nests other roles grants theirs.
    if (perms.length === 0 && !r.roles?.length && !incremental) {
      ctx.warn(
        `Role is missing permission: local role ${JSON.stringify(r.name)} of application ${JSON.stringify(app.name)} grants no permission`,
      );
    }
    perms.forEach((perm, j) => {
      if (!incremental && !permissions.has(perm))
        ctx.error(
          `permission ${JSON.stringify(perm)} does not exist in the top-level permissions`,
          'permissions',
          j,
        );
    });
    path.pop();
  });
  list.forEach((r, i) => aliasLocal(roles, r, i));
  checkNesting(list, roles, app, ctx, incremental);
  path.pop();
  return roles;
}

/** Resolves every role's `roles` and reports the unknown ones and each cycle, by the path it takes. */
function checkNesting(
  list: readonly NonNullable<Application['local_roles']>[number][],
  roles: NameIndex,
  app: Application,
  ctx: CheckContext,
  incremental: boolean,
): void {
  const nested: number[][] = list.map(() => []);
  list.forEach((r, i) =>
    (r.roles ?? []).forEach((ref, j) => {
      const target = roles.get(ref);
      if (target !== undefined) nested[i]!.push(target);
      else if (!incremental)
        ctx.error(
          `local role ${JSON.stringify(ref)} does not exist in application ${JSON.stringify(app.name)}`,
          i,
          'roles',
          j,
        );
    }),
  );
  for (const cycle of findCycles(nested)) {
    const keys = [...cycle, cycle[0]!].map((i) => JSON.stringify(localKey(list[i]!))).join(' -> ');
    ctx.error(`local role nesting has a cycle: ${keys}`, cycle[0]!, 'roles');
  }
}
