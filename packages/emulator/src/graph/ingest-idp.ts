/**
 * The `identity_provider` template into the graph: domain, users, groups and apps, with group
 * membership and nesting, manager links, app assignments, and references to things outside this
 * graph (assumable cloud roles, source identities of users and groups, owned entities). An app
 * assignment's custom properties are `customprop_<name>` properties of its `ASSIGNED_TO` edge; a
 * user's `identity_type` is a property of its node. Users and groups register their
 * names, emails and identities as identity keys, which local identities of applications link to.
 */
import type { IdentityProviderPayload, IdpGroup, IdpUser } from '@oaakit/core';
import { entityProperties, fold } from './properties.js';
import type { GraphWriter } from './writer.js';

const USER_SKIP = new Set([
  'groups',
  'assumed_role_arns',
  'source_identity',
  'entities_owned',
  'app_assignments',
]);
const GROUP_SKIP = new Set(['groups', 'assumed_role_arns', 'source_identity', 'app_assignments']);
const APP_SKIP = new Set(['assumed_role_arns']);
/** An assignment's id and name are written as `assignment_id` and `assignment_name`. */
const ASSIGNMENT_SKIP = new Set(['id', 'name', 'app_id']);

type Assumed = IdpUser['assumed_role_arns'];

function assumedRoles(value: Assumed): string[] {
  if (!value) return [];
  if (Array.isArray(value)) return value.map((r) => r.identity);
  return value.identity ?? [];
}

function register(map: Map<string, number>, keys: readonly (string | null | undefined)[], rid: number): void {
  for (const k of keys) if (k && !map.has(fold(k))) map.set(fold(k), rid);
}

function writeLinks(
  w: GraphWriter,
  rid: number,
  entity: IdpUser | IdpGroup,
  groups: Map<string, number>,
  apps: Map<string, number>,
  warnings: string[],
): void {
  for (const g of entity.groups ?? []) {
    const group = groups.get(fold(g.identity));
    if (group === undefined)
      warnings.push(`${JSON.stringify(entity.name)} names unknown group ${JSON.stringify(g.identity)}`);
    else w.edge(rid, group, 'MEMBER_OF');
  }
  for (const arn of assumedRoles(entity.assumed_role_arns))
    w.edge(rid, undefined, 'CAN_ASSUME', { ref: arn });
  for (const a of entity.app_assignments ?? []) {
    const app = apps.get(fold(a.app_id));
    const props = entityProperties(a, ASSIGNMENT_SKIP, {
      assignment_id: a.id,
      ...(a.name == null ? {} : { assignment_name: a.name }),
    });
    if (app === undefined) w.edge(rid, undefined, 'ASSIGNED_TO', { ref: a.app_id, props });
    else w.edge(rid, app, 'ASSIGNED_TO', { props });
  }
  if (entity.source_identity)
    w.edge(rid, undefined, 'SOURCE_IDENTITY', {
      ref: `${entity.source_identity.provider_type}:${entity.source_identity.identity}`,
    });
}

/** Writes an `identity_provider` payload; returns warnings for anything it had to skip. */
export function ingestIdentityProvider(
  w: GraphWriter,
  payload: IdentityProviderPayload,
): { warnings: string[]; idpTypes: string[] } {
  const warnings: string[] = [];
  const t = payload.idp_type;
  let domainRid: number | undefined;
  for (const d of payload.domains ?? []) {
    const rid = w.node({
      kind: 'domain',
      key: fold(d.name),
      type: `OAA.${t}.IdPDomain`,
      name: d.name,
      properties: entityProperties(d, new Set()),
      tags: d.tags,
    });
    domainRid ??= rid;
  }

  const apps = new Map<string, number>();
  for (const a of payload.apps ?? []) {
    if (apps.has(fold(a.id))) continue;
    const rid = w.node({
      kind: 'app',
      key: fold(a.id),
      type: `OAA.${t}.IdPApp`,
      name: a.name,
      parent: domainRid,
      properties: entityProperties(a, APP_SKIP),
      tags: a.tags,
    });
    apps.set(fold(a.id), rid);
    for (const arn of assumedRoles(a.assumed_role_arns)) w.edge(rid, undefined, 'CAN_ASSUME', { ref: arn });
  }

  const groups = new Map<string, number>();
  const groupRids: number[] = [];
  for (const g of payload.groups ?? []) {
    const key = fold(g.identity ?? g.name);
    if (groups.has(key)) continue;
    const rid = w.node({
      kind: 'group',
      key,
      type: `OAA.${t}.IdPGroup`,
      name: g.name,
      parent: domainRid,
      properties: entityProperties(g, GROUP_SKIP),
      tags: g.tags,
    });
    register(groups, [g.identity, g.name], rid);
    groupRids.push(rid);
    w.identityKey(rid, g.name);
    if (g.identity && fold(g.identity) !== fold(g.name)) w.identityKey(rid, g.identity);
  }
  (payload.groups ?? []).forEach((g, i) => {
    const rid = groupRids[i];
    if (rid !== undefined) writeLinks(w, rid, g, groups, apps, warnings);
  });

  const users = new Map<string, number>();
  const written: [IdpUser, number][] = [];
  for (const u of payload.users ?? []) {
    const key = fold(u.identity ?? u.name);
    if (users.has(key)) continue;
    const rid = w.node({
      kind: 'user',
      key,
      type: `OAA.${t}.IdPUser`,
      name: u.name,
      parent: domainRid,
      properties: entityProperties(u, USER_SKIP),
      tags: u.tags,
    });
    register(users, [u.identity, u.name], rid);
    written.push([u, rid]);
    const keys = new Set([u.name, u.email, u.identity].filter((k): k is string => !!k).map(fold));
    for (const k of keys) w.identityKey(rid, k);
  }
  for (const [u, rid] of written) {
    writeLinks(w, rid, u, groups, apps, warnings);
    if (u.manager_id) {
      const manager = users.get(fold(u.manager_id));
      if (manager === undefined) w.edge(rid, undefined, 'MANAGED_BY', { ref: u.manager_id });
      else w.edge(rid, manager, 'MANAGED_BY');
    }
    for (const o of u.entities_owned ?? []) w.edge(rid, undefined, 'OWNS', { ref: `${o.node_type}:${o.id}` });
  }
  return { warnings, idpTypes: [t] };
}
