/**
 * The `application` template into the graph: applications, local users, groups, roles, access
 * credentials, permissions and resources, then the grants of `identity_to_permissions`.
 */
import type { Application, ApplicationPayload, Permission } from '@oaakit/core';
import type { AppScope, PermissionNodes } from './app-scope.js';
import { writeGrants } from './ingest-app-grants.js';
import { writeResources } from './ingest-app-resources.js';
import { entityProperties, fold } from './properties.js';
import type { GraphWriter } from './writer.js';

const APP_SKIP = new Set(['local_users', 'local_groups', 'local_roles', 'local_access_creds', 'resources']);
const USER_SKIP = new Set(['groups', 'access_creds']);
const GROUP_SKIP = new Set(['groups']);
const ROLE_SKIP = new Set<string>();
const NONE = new Set<string>();

/** Types the payload reports, for the provider's lists. */
export interface IngestSummary {
  warnings: string[];
  applicationTypes: string[];
  resourceTypes: string[];
}

function collectResourceTypes(resources: Application['resources'], into: Set<string>): void {
  for (const r of resources ?? []) {
    into.add(r.resource_type);
    collectResourceTypes(r.sub_resources, into);
  }
}

function writePermissions(w: GraphWriter, app: AppScope, permissions: readonly Permission[]): void {
  for (const p of permissions) {
    if (p.application_type?.length && !p.application_type.some((t) => fold(t) === fold(app.type))) continue;
    const perm: PermissionNodes = { applyToSubResources: p.apply_to_sub_resources === true, nodes: [] };
    const types = p.resource_types?.length ? p.resource_types : [undefined];
    for (const rt of types) {
      const rid = w.node({
        kind: 'permission',
        key: `${fold(app.name)}/${fold(p.name)}${rt === undefined ? '' : `#${fold(rt)}`}`,
        type: `OAA.${app.type}.Permission`,
        name: p.name,
        parent: app.rid,
        properties: entityProperties(
          p,
          new Set(['application_type', 'resource_types']),
          rt === undefined ? undefined : { resource_type: rt },
        ),
      });
      perm.nodes.push({ rid, resourceType: rt === undefined ? undefined : fold(rt) });
    }
    if (!app.permissions.has(fold(p.name))) app.permissions.set(fold(p.name), perm);
  }
}

function register(map: Map<string, number>, keys: readonly (string | null | undefined)[], rid: number): void {
  for (const k of keys) if (k) map.set(fold(k), rid);
}

function writeApplication(
  w: GraphWriter,
  a: Application,
  permissions: readonly Permission[],
  warnings: string[],
): AppScope {
  const appKey = fold(a.name);
  const rid = w.node({
    kind: 'application',
    key: appKey,
    type: `OAA.${a.application_type}.Application`,
    name: a.name,
    properties: entityProperties(a, APP_SKIP),
    tags: a.tags,
  });
  const app: AppScope = {
    rid,
    name: a.name,
    type: a.application_type,
    users: new Map(),
    groups: new Map(),
    roles: new Map(),
    permissions: new Map(),
    resources: new Map(),
  };
  writePermissions(w, app, permissions);

  for (const r of a.local_roles ?? []) {
    const key = fold(r.unique_id ?? r.name);
    if (app.roles.has(key)) continue;
    const roleRid = w.node({
      kind: 'role',
      key: `${appKey}/${key}`,
      type: `OAA.${a.application_type}.Role`,
      name: r.name,
      parent: rid,
      properties: entityProperties(r, ROLE_SKIP),
      tags: r.tags,
    });
    const role = { rid: roleRid, name: r.name, permissions: [] as PermissionNodes[] };
    for (const name of r.permissions ?? []) {
      const perm = app.permissions.get(fold(name));
      if (!perm) {
        warnings.push(`role ${JSON.stringify(r.name)} names unknown permission ${JSON.stringify(name)}`);
        continue;
      }
      role.permissions.push(perm);
      for (const n of perm.nodes) w.edge(roleRid, n.rid, 'ROLE_HAS_PERMISSION');
    }
    app.roles.set(key, role);
    if (r.unique_id) app.roles.set(fold(r.name), role);
  }

  const credentials = new Map<string, number>();
  for (const c of a.local_access_creds ?? []) {
    const key = fold(c.unique_id ?? c.name);
    if (credentials.has(key)) continue;
    const credRid = w.node({
      kind: 'access_cred',
      key: `${appKey}/${key}`,
      type: `OAA.${a.application_type}.AccessCred`,
      name: c.name,
      parent: rid,
      properties: entityProperties(c, NONE),
      tags: c.tags,
    });
    register(credentials, [c.unique_id, c.name], credRid);
  }

  // Groups first, so nesting and memberships resolve in any order.
  const groups = a.local_groups ?? [];
  for (const g of groups) {
    const key = fold(g.unique_id ?? g.name);
    if (app.groups.has(key)) continue;
    const groupRid = w.node({
      kind: 'group',
      key: `${appKey}/${key}`,
      type: `OAA.${a.application_type}.Group`,
      name: g.name,
      parent: rid,
      properties: entityProperties(g, GROUP_SKIP),
      tags: g.tags,
    });
    register(app.groups, [g.unique_id, g.name], groupRid);
    for (const identity of g.identities ?? [])
      w.edge(groupRid, undefined, 'HAS_IDENTITY', { ref: fold(identity) });
  }
  for (const g of groups) {
    const child = app.groups.get(fold(g.unique_id ?? g.name))!;
    for (const parentName of g.groups ?? []) {
      const parent = app.groups.get(fold(parentName));
      if (parent === undefined)
        warnings.push(
          `group ${JSON.stringify(g.name)} names unknown parent group ${JSON.stringify(parentName)}`,
        );
      else w.edge(child, parent, 'MEMBER_OF');
    }
  }

  for (const u of a.local_users ?? []) {
    const key = fold(u.unique_id ?? u.id ?? u.name);
    if (app.users.has(key)) continue;
    const userRid = w.node({
      kind: 'user',
      key: `${appKey}/${key}`,
      type: `OAA.${a.application_type}.User`,
      name: u.name,
      parent: rid,
      properties: entityProperties(u, USER_SKIP),
      tags: u.tags,
    });
    register(app.users, [u.unique_id, u.id, u.name], userRid);
    for (const groupName of u.groups ?? []) {
      const group = app.groups.get(fold(groupName));
      if (group === undefined)
        warnings.push(`user ${JSON.stringify(u.name)} names unknown group ${JSON.stringify(groupName)}`);
      else w.edge(userRid, group, 'MEMBER_OF');
    }
    for (const identity of u.identities ?? [])
      w.edge(userRid, undefined, 'HAS_IDENTITY', { ref: fold(identity) });
    for (const cred of u.access_creds ?? []) {
      const credRid = credentials.get(fold(cred));
      if (credRid !== undefined) w.edge(userRid, credRid, 'OWNS');
    }
  }

  writeResources(w, app, a.resources ?? [], { rid, key: '', paths: [], depth: 0 }, warnings);
  return app;
}

/** Writes an `application` payload, consuming it (entity lists are cleared once written). */
export function ingestApplication(w: GraphWriter, payload: ApplicationPayload): IngestSummary {
  const warnings: string[] = [];
  const apps = new Map<string, AppScope>();
  const resourceTypes = new Set<string>();
  for (const a of payload.applications) {
    if (apps.has(fold(a.name))) {
      warnings.push(`application ${JSON.stringify(a.name)} appears twice; the second is ignored`);
      continue;
    }
    collectResourceTypes(a.resources, resourceTypes);
    apps.set(fold(a.name), writeApplication(w, a, payload.permissions ?? [], warnings));
    // The entities are written and their row ids mapped: let a big payload's objects be collected
    // while the grants are written.
    a.local_users = a.local_groups = a.local_roles = a.local_access_creds = a.resources = null;
  }
  writeGrants(w, apps, payload.identity_to_permissions ?? [], warnings);
  return {
    warnings,
    applicationTypes: [...new Set(payload.applications.map((a) => a.application_type))],
    resourceTypes: [...resourceTypes],
  };
}
