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

/** How many entities of one kind were added, removed and changed. */
export interface KindCounts {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
}

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

/** Whether `payload` has top-level fields besides its entity collections, which a first push sets. */
export function hasHeaderFields(template: Template, payload: JsonObject): boolean {
  const spec = templateSpec(template);
  return encodeHeader(spec, payload) !== encodeHeader(spec, {});
}
