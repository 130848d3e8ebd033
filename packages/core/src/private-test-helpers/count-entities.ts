/**
 * Counts every entity of a materialized payload, per kind: what the runner's streamed counts must
 * equal, computed the plain way for tests to compare against.
 */
import type { Template } from '../schemas/templates.js';
import { templateKinds, type EntityCounts } from '../diff/entity-counts.js';
import { templateSpec, type ChildCollection } from '../diff/entity-kinds.js';
import type { JsonObject } from '../diff/json.js';

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
