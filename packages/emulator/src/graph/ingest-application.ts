/**
 * The `application` template into the graph: applications, local users, groups, roles, access
 * credentials, permissions and resources, their owners, then the grants of
 * `identity_to_permissions`. Local identities are keyed `id`, else `unique_id`, else `name`
 * (`LocalIndex`); a user's `access_creds` become `HAS_ACCESS_CRED` edges from the user to the
 * credential.
 */
import type { Application, ApplicationPayload, LocalGroup, Permission } from '@oaakit/core';
import type { LastLoginLookup } from '../last-login/lookup.js';
import type { AppScope, PermissionNodes } from './app-scope.js';
import { writeGrants } from './ingest-app-grants.js';
import { writeOwners, type Owned } from './ingest-app-owners.js';
import { writeResources } from './ingest-app-resources.js';
import { writeRoles } from './ingest-app-roles.js';
import { LocalIndex, localKey } from './local-index.js';
import { entityProperties, fold } from './properties.js';
import type { GraphWriter } from './writer.js';

const APP_SKIP = new Set(['local_users', 'local_groups', 'local_roles', 'local_access_creds', 'resources']);
const USER_SKIP = new Set(['groups', 'access_creds']);
const GROUP_SKIP = new Set(['groups']);
const NONE = new Set<string>();

/** Types the payload reports, for the provider's lists. */
export interface IngestSummary {
  warnings: string[];
  applicationTypes: string[];
  resourceTypes: string[];
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

function writeApplication(
  w: GraphWriter,
  a: Application,
  permissions: readonly Permission[],
  warnings: string[],
  lastLogin: LastLoginLookup | undefined,
): AppScope {
  const appKey = fold(a.name);
  const type = a.application_type;
  const rid = w.node({
    kind: 'application',
    key: appKey,
    type: `OAA.${type}.Application`,
    name: a.name,
    properties: entityProperties(a, APP_SKIP),
    tags: a.tags,
  });
  const app: AppScope = {
    rid,
    name: a.name,
    type,
    users: new LocalIndex(),
    groups: new LocalIndex(),
    roles: new LocalIndex(),
    creds: new LocalIndex(),
    permissions: new Map(),
    resources: new Map(),
    resourceTypes: new Set(),
    connectionTypes: new Set(),
  };
  // Owners are written last, when every local entity an owner may name is known.
  const owned: Owned[] = [[rid, a.owners]];
  writePermissions(w, app, permissions);
  for (const [roleRid, r] of writeRoles(w, app, a.local_roles ?? [], warnings))
    owned.push([roleRid, r.owners]);

  for (const c of a.local_access_creds ?? []) {
    if (app.creds.holds(c)) continue;
    const credRid = w.node({
      kind: 'access_cred',
      key: `${appKey}/${localKey(c)}`,
      type: `OAA.${type}.AccessCred`,
      name: c.name,
      parent: rid,
      properties: entityProperties(c, NONE),
      tags: c.tags,
    });
    app.creds.add(c, credRid);
    owned.push([credRid, c.owners]);
  }

  // Groups first, so nesting and memberships resolve in any order.
  const groups: [LocalGroup, number][] = [];
  for (const g of a.local_groups ?? []) {
    if (app.groups.holds(g)) continue;
    const groupRid = w.node({
      kind: 'group',
      key: `${appKey}/${localKey(g)}`,
      type: `OAA.${type}.Group`,
      name: g.name,
      parent: rid,
      properties: entityProperties(g, GROUP_SKIP),
      tags: g.tags,
    });
    app.groups.add(g, groupRid);
    groups.push([g, groupRid]);
    owned.push([groupRid, g.owners]);
    for (const identity of g.identities ?? [])
      w.edge(groupRid, undefined, 'HAS_IDENTITY', { ref: fold(identity) });
  }
  for (const [g, child] of groups) {
    for (const parentName of g.groups ?? []) {
      const parent = app.groups.get(parentName);
      if (parent === undefined)
        warnings.push(
          `group ${JSON.stringify(g.name)} names unknown parent group ${JSON.stringify(parentName)}`,
        );
      else w.edge(child, parent, 'MEMBER_OF');
    }
  }

  for (const u of a.local_users ?? []) {
    const userKey = localKey(u);
    if (app.users.holds(u, userKey)) continue;
    const ssoAt = lastLogin?.at(a.idp_app_id, u.identities);
    const userRid = w.node({
      kind: 'user',
      key: `${appKey}/${userKey}`,
      type: `OAA.${type}.User`,
      name: u.name,
      parent: rid,
      properties: entityProperties(
        u,
        USER_SKIP,
        ssoAt === undefined ? undefined : { sso_last_login_at: ssoAt },
      ),
      tags: u.tags,
    });
    app.users.add(u, userRid, userKey);
    // Only users with owners: a million entries of nothing would be held to the end of the app.
    if (u.owners?.length) owned.push([userRid, u.owners]);
    for (const groupName of u.groups ?? []) {
      const group = app.groups.get(groupName);
      if (group === undefined)
        warnings.push(`user ${JSON.stringify(u.name)} names unknown group ${JSON.stringify(groupName)}`);
      else w.edge(userRid, group, 'MEMBER_OF');
    }
    for (const identity of u.identities ?? [])
      w.edge(userRid, undefined, 'HAS_IDENTITY', { ref: fold(identity) });
    for (const cred of u.access_creds ?? []) {
      const credRid = app.creds.get(cred);
      if (credRid === undefined)
        warnings.push(
          `user ${JSON.stringify(u.name)} names unknown access credential ${JSON.stringify(cred)}`,
        );
      else w.edge(userRid, credRid, 'HAS_ACCESS_CRED');
    }
  }

  writeResources(w, app, a.resources ?? [], { rid, key: '', paths: [], depth: 0 }, warnings, owned);
  writeOwners(w, app, owned);
  return app;
}

/** Writes an `application` payload, consuming it (entity lists are cleared once written). */
export function ingestApplication(
  w: GraphWriter,
  payload: ApplicationPayload,
  lastLogin?: LastLoginLookup,
): IngestSummary {
  const warnings: string[] = [];
  const apps = new Map<string, AppScope>();
  const resourceTypes = new Set<string>();
  for (const a of payload.applications) {
    if (apps.has(fold(a.name))) {
      warnings.push(`application ${JSON.stringify(a.name)} appears twice; the second is ignored`);
      continue;
    }
    const app = writeApplication(w, a, payload.permissions ?? [], warnings, lastLogin);
    for (const t of app.resourceTypes) resourceTypes.add(t);
    apps.set(fold(a.name), app);
    // The entities are written and their row ids mapped: let a big payload's objects be collected
    // while the grants are written.
    a.local_users = a.local_groups = a.local_roles = a.local_access_creds = a.resources = null;
  }
  // Grants are edges only: every node is written.
  w.nodesDone();
  writeGrants(w, apps, payload.identity_to_permissions ?? [], warnings);
  return {
    warnings,
    applicationTypes: [...new Set(payload.applications.map((a) => a.application_type))],
    resourceTypes: [...resourceTypes],
  };
}
