/** Entity counts of a payload, per kind as the diff names them, and the kinds that are identities. */
import type { EntityKind, JsonObject, Template } from '@oaakit/core';

/** The entity kinds each template holds, in report order. */
export const TEMPLATE_KINDS: Readonly<Record<Template, readonly EntityKind[]>> = {
  application: [
    'applications',
    'local_users',
    'local_groups',
    'local_roles',
    'local_access_creds',
    'resources',
    'permissions',
    'identity_to_permissions',
  ],
  identity_provider: ['domains', 'users', 'groups', 'apps'],
  hris: ['employees', 'groups'],
};

/** The kind whose removal the deletion guard watches: the template's people. */
export const IDENTITY_KIND: Readonly<Record<Template, EntityKind>> = {
  application: 'local_users',
  identity_provider: 'users',
  hris: 'employees',
};

/** Entities per kind, every kind of the template present (0 when none). */
export type EntityCounts = Partial<Record<EntityKind, number>>;

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function countResources(resources: unknown): number {
  let n = 0;
  for (const r of list(resources)) {
    n += 1;
    if (r !== null && typeof r === 'object') n += countResources((r as JsonObject)['sub_resources']);
  }
  return n;
}

/** How many entities of each kind `payload` (a materialized payload of `template`) holds. */
export function countEntities(template: Template, payload: JsonObject): EntityCounts {
  const counts: EntityCounts = Object.fromEntries(TEMPLATE_KINDS[template].map((k) => [k, 0]));
  if (template !== 'application') {
    for (const kind of TEMPLATE_KINDS[template]) counts[kind] = list(payload[kind]).length;
    return counts;
  }
  const apps = list(payload['applications']);
  counts.applications = apps.length;
  for (const app of apps) {
    if (app === null || typeof app !== 'object') continue;
    const a = app as JsonObject;
    counts.local_users! += list(a['local_users']).length;
    counts.local_groups! += list(a['local_groups']).length;
    counts.local_roles! += list(a['local_roles']).length;
    counts.local_access_creds! += list(a['local_access_creds']).length;
    counts.resources! += countResources(a['resources']);
  }
  counts.permissions = list(payload['permissions']).length;
  counts.identity_to_permissions = list(payload['identity_to_permissions']).length;
  return counts;
}
