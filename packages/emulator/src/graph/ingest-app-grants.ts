/**
 * `identity_to_permissions` into edges: direct permissions (`HAS_PERMISSION`) and role assignments
 * (`HAS_ROLE`) of local users, groups, access credentials and idp identities, each scoped to the application or resource it applies on. A permission with
 * `apply_to_sub_resources` also reaches every sub-resource below a resource it is granted on
 * (edges marked `inherited`). An `idp` identity is outside this graph: its edges carry the identity
 * as `ref` and no source node.
 */
import type { IdentityToPermissions } from '@oaakit/core';
import { descendantsOf, permissionNodesFor, type AppScope, type ResourceEntry } from './app-scope.js';
import { fold } from './properties.js';
import type { GraphWriter } from './writer.js';

interface Principal {
  rid: number | undefined;
  ref: string | undefined;
}

interface Target {
  rid: number;
  resource: ResourceEntry | undefined;
}

function principalOf(app: AppScope, entry: IdentityToPermissions): Principal | undefined {
  switch (entry.identity_type) {
    case 'local_user': {
      const rid = app.users.get(entry.identity);
      return rid === undefined ? undefined : { rid, ref: undefined };
    }
    case 'local_group': {
      const rid = app.groups.get(entry.identity);
      return rid === undefined ? undefined : { rid, ref: undefined };
    }
    case 'idp':
      return { rid: undefined, ref: fold(entry.identity) };
    case 'local_access_creds': {
      const rid = app.creds.get(entry.identity);
      return rid === undefined ? undefined : { rid, ref: undefined };
    }
  }
}

function targetsOf(
  app: AppScope,
  applyToApplication: boolean | null | undefined,
  resources: readonly string[] | null | undefined,
  warnings: string[],
): Target[] {
  const out: Target[] = [];
  // A grant naming no resource applies on the application itself.
  if (applyToApplication === true || !resources?.length) out.push({ rid: app.rid, resource: undefined });
  for (const ref of resources ?? []) {
    const entry = app.resources.get(fold(ref));
    if (entry === undefined)
      warnings.push(`application ${JSON.stringify(app.name)} has no resource ${JSON.stringify(ref)}`);
    else out.push({ rid: entry.rid, resource: entry });
  }
  return out;
}

function grant(
  w: GraphWriter,
  who: Principal,
  permRids: readonly number[],
  target: Target,
  props?: Record<string, unknown>,
): void {
  for (const rid of permRids) {
    w.edge(who.rid, rid, 'HAS_PERMISSION', {
      scope: target.rid,
      ...(who.ref === undefined ? {} : { ref: who.ref }),
      ...(props === undefined ? {} : { props }),
    });
  }
}

/** Writes the grant edges of every `identity_to_permissions` entry. */
export function writeGrants(
  w: GraphWriter,
  apps: ReadonlyMap<string, AppScope>,
  entries: Iterable<IdentityToPermissions>,
  warnings: string[],
): void {
  for (const entry of entries) {
    for (const ap of entry.application_permissions ?? []) {
      const app = apps.get(fold(ap.application));
      const who = app && principalOf(app, entry);
      const perm = app?.permissions.get(fold(ap.permission));
      if (!app || !who || !perm) {
        warnings.push(
          `permission ${JSON.stringify(ap.permission)} for ${JSON.stringify(entry.identity)} on ${JSON.stringify(ap.application)} could not be resolved`,
        );
        continue;
      }
      for (const target of targetsOf(app, ap.apply_to_application, ap.resources, warnings)) {
        grant(w, who, permissionNodesFor(perm, target.resource?.type), target);
        if (!perm.applyToSubResources || !target.resource) continue;
        for (const sub of descendantsOf(target.resource)) {
          grant(
            w,
            who,
            permissionNodesFor(perm, sub.type),
            { rid: sub.rid, resource: sub },
            { inherited: true },
          );
        }
      }
    }
    for (const ra of entry.role_assignments ?? []) {
      const app = apps.get(fold(ra.application));
      const who = app && principalOf(app, entry);
      const role = app?.roles.get(ra.role);
      if (!app || !who || !role) {
        warnings.push(
          `role ${JSON.stringify(ra.role)} for ${JSON.stringify(entry.identity)} on ${JSON.stringify(ra.application)} could not be resolved`,
        );
        continue;
      }
      const props = ra.custom_properties ? customProps(ra.custom_properties) : undefined;
      for (const target of targetsOf(app, ra.apply_to_application, ra.resources, warnings)) {
        w.edge(who.rid, role.rid, 'HAS_ROLE', {
          scope: target.rid,
          ...(who.ref === undefined ? {} : { ref: who.ref }),
          ...(props === undefined ? {} : { props }),
        });
        if (!target.resource) continue;
        for (const perm of role.permissions) {
          if (!perm.applyToSubResources) continue;
          for (const sub of descendantsOf(target.resource)) {
            grant(
              w,
              who,
              permissionNodesFor(perm, sub.type),
              { rid: sub.rid, resource: sub },
              { inherited: true, via_role: role.name },
            );
          }
        }
      }
    }
  }
}

function customProps(values: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (v !== null && v !== undefined) out[`customprop_${k}`] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}
