/**
 * Entity counts of a payload, per kind, walked from the one entity model (`entity-kinds.ts`): the
 * runner reports them, the deletion guard compares them, and a first push is summarized from them
 * without diffing every entity against nothing.
 */
import type { Template } from '../schemas/templates.js';
import { encodeHeader } from './entity-parts.js';
import { templateSpec, type ChildCollection, type EntityKind } from './entity-kinds.js';
import type { JsonObject } from './json.js';

/** Entities per kind; every kind of the template is present (0 when none). */
export type EntityCounts = Partial<Record<EntityKind, number>>;

function addKinds(collections: readonly ChildCollection[], out: EntityKind[]): void {
  for (const { spec } of collections) {
    if (out.includes(spec.kind)) continue;
    out.push(spec.kind);
    addKinds(spec.children, out);
  }
}

/** The entity kinds `template` holds, in report order (an entity's children after it). */
export function templateKinds(template: Template): readonly EntityKind[] {
  const kinds: EntityKind[] = [];
  addKinds(templateSpec(template).collections, kinds);
  return kinds;
}

/** The kind whose removal the deletion guard watches: the template's people. */
export function identityKind(template: Template): EntityKind {
  return templateSpec(template).identityKind;
}

function countCollections(
  collections: readonly ChildCollection[],
  parent: JsonObject,
  counts: EntityCounts,
): void {
  for (const { field, spec } of collections) {
    const items: unknown = parent[field];
    if (!Array.isArray(items)) continue;
    for (const item of items as unknown[]) {
      counts[spec.kind] = (counts[spec.kind] ?? 0) + 1;
      if (spec.children.length > 0 && item !== null && typeof item === 'object' && !Array.isArray(item))
        countCollections(spec.children, item as JsonObject, counts);
    }
  }
}

/** How many entities of each kind `payload` (a materialized payload of `template`) holds. */
export function countEntities(template: Template, payload: JsonObject): EntityCounts {
  const counts: EntityCounts = Object.fromEntries(templateKinds(template).map((k) => [k, 0]));
  countCollections(templateSpec(template).collections, payload, counts);
  return counts;
}

/** Whether `payload` has top-level fields besides its entity collections, which a first push sets. */
export function hasHeaderFields(template: Template, payload: JsonObject): boolean {
  const spec = templateSpec(template);
  return encodeHeader(spec, payload) !== encodeHeader(spec, {});
}
