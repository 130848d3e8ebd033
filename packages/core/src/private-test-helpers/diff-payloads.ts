/**
 * A reference diff of two materialized payloads, entity by entity. The runner diffs streamed
 * payloads by their entity hashes; this computes the same answer the plain way, held in memory,
 * for tests to compare the two.
 */
import type { Violation } from '../errors.js';
import { ENTITY_KINDS, templateSpec, type EntityKind, type KindSpec } from '../diff/entity-kinds.js';
import type { Template } from '../schemas/templates.js';
import { displayKey, indexCollection, type IndexedEntity } from '../diff/entity-key.js';
import { encodeHeader, ownChanges } from '../diff/entity-parts.js';
import type { JsonObject } from '../diff/json.js';
import type { KindCounts } from '../diff/entity-counts.js';
import { childSides, matchCollection, type MatchSides } from '../diff/match-collection.js';
import { throwIfViolations } from '../diff/problems.js';

/** One added, removed or changed entity. */
export interface DiffItem {
  readonly kind: EntityKind;
  /**
   * The entity's key, lower-cased: `unique_id`, `id` or `identity` when the kind keys by it, else
   * `name`; `identity_type:identity` for identity_to_permissions; for resources the keys of the
   * resource and its ancestors joined by `/` (see `resourcePath`).
   */
  readonly key: string;
  /** The entity's `name` as written (from the newer version when both exist). */
  readonly name?: string;
  /** Key of the containing application, for the kinds nested in applications. */
  readonly application?: string;
  /** Resources only: keys from the top-level resource down to this one. */
  readonly resourcePath?: readonly string[];
  /** Changed items only: own fields whose value differs, sorted (nested collections are diffed on their own). */
  readonly fields?: readonly string[];
}

/** The changes to one entity kind. */
export interface KindDiff {
  readonly added: DiffItem[];
  readonly removed: DiffItem[];
  readonly changed: DiffItem[];
}

/** Entity-level difference of two payloads of one template. */
export interface PayloadDiff {
  readonly template: Template;
  /** True when a top-level field that is not an entity collection differs (e.g. `custom_property_definition`). */
  readonly headerChanged: boolean;
  /** Every kind is present; kinds the template lacks are empty. */
  readonly byKind: Readonly<Record<EntityKind, KindDiff>>;
  readonly counts: Readonly<Record<EntityKind, KindCounts>>;
  readonly totals: KindCounts;
  /** True when the payloads hold the same data (then their digests are equal too). */
  readonly isEmpty: boolean;
}

interface Context {
  readonly application?: string;
  readonly resourcePath: readonly string[];
}

/** Where an added or removed entity sits: its context, its collection's path, where problems go. */
interface Place {
  readonly context: Context;
  readonly path: string;
  readonly violations: Violation[];
}

function emptyKindDiff(): KindDiff {
  return { added: [], removed: [], changed: [] };
}

class DiffCollector {
  readonly byKind = Object.fromEntries(ENTITY_KINDS.map((k) => [k, emptyKindDiff()])) as Record<
    EntityKind,
    KindDiff
  >;

  push(
    change: keyof KindDiff,
    spec: KindSpec,
    entity: IndexedEntity,
    context: Context,
    fields?: string[],
  ): void {
    const key = displayKey(spec, entity.key);
    const path = spec.kind === 'resources' ? [...context.resourcePath, key] : [];
    const name = entity.entity.name;
    this.byKind[spec.kind][change].push({
      kind: spec.kind,
      key: spec.kind === 'resources' ? path.join('/') : key,
      ...(typeof name === 'string' ? { name } : {}),
      ...(context.application === undefined ? {} : { application: context.application }),
      ...(spec.kind === 'resources' ? { resourcePath: path } : {}),
      ...(fields === undefined ? {} : { fields }),
    });
  }
}

/** The context of the entities nested in `entity`. */
function nestedContext(spec: KindSpec, entity: IndexedEntity, context: Context): Context {
  const key = displayKey(spec, entity.key);
  if (spec.kind === 'applications') return { application: key, resourcePath: [] };
  if (spec.kind === 'resources') return { ...context, resourcePath: [...context.resourcePath, key] };
  return context;
}

/** Reports an added or removed entity and everything nested in it, which comes and goes with it. */
function pushTree(
  out: DiffCollector,
  change: 'added' | 'removed',
  spec: KindSpec,
  entity: IndexedEntity,
  place: Place,
): void {
  out.push(change, spec, entity, place.context);
  const context = nestedContext(spec, entity, place.context);
  for (const child of spec.children) {
    const path = `${place.path}[${entity.index}].${child.field}`;
    const nested = indexCollection(child.spec, entity.entity[child.field], path, place.violations);
    for (const item of nested.values()) {
      pushTree(out, change, child.spec, item, { context, path, violations: place.violations });
    }
  }
}

function diffCollection(
  out: DiffCollector,
  spec: KindSpec,
  before: unknown,
  after: unknown,
  sides: MatchSides,
  context: Context,
): void {
  const match = matchCollection(spec, before, after, sides);
  const added: Place = { context, path: sides.afterPath, violations: sides.afterViolations };
  const removed: Place = { context, path: sides.beforePath, violations: sides.beforeViolations };
  for (const entity of match.added) pushTree(out, 'added', spec, entity, added);
  for (const entity of match.removed) pushTree(out, 'removed', spec, entity, removed);
  for (const pair of match.matched) {
    const fields = ownChanges(spec, pair.before.entity, pair.after.entity);
    if (fields.length > 0) out.push('changed', spec, pair.after, context, fields);
    if (spec.children.length === 0) continue;
    const inner = nestedContext(spec, pair.after, context);
    for (const { field, spec: child } of spec.children) {
      const sidesOfChild = childSides(sides, pair, field);
      diffCollection(out, child, pair.before.entity[field], pair.after.entity[field], sidesOfChild, inner);
    }
  }
}

function countsOf(kind: KindDiff): KindCounts {
  return { added: kind.added.length, removed: kind.removed.length, changed: kind.changed.length };
}

/**
 * Entity-level difference between two payloads of one template: which entities were added,
 * removed or changed, by kind. Entities pair up by key (compared case-insensitively, as the
 * service compares names); "changed" means the same key with different own data, where tags
 * compare as a set and null, `[]` and `{}` mean "unused". An application's nested collections
 * are diffed on their own, so a changed local user does not make its application "changed". An
 * added or removed entity brings its nested entities with it into the report (removing an
 * application removes its local users), so counts show every identity that comes or goes.
 *
 * Throws `ValidationError` when either payload has an entity without a key, two entities with one
 * key, or an entity collection that is not a list of objects.
 */
export function diffPayloads(template: Template, before: JsonObject, after: JsonObject): PayloadDiff {
  const spec = templateSpec(template);
  const out = new DiffCollector();
  const beforeViolations: Violation[] = [];
  const afterViolations: Violation[] = [];
  for (const { field, spec: kind } of spec.collections) {
    const sides = { beforePath: field, afterPath: field, beforeViolations, afterViolations };
    diffCollection(out, kind, before[field], after[field], sides, { resourcePath: [] });
  }
  throwIfViolations(beforeViolations, 'the previous payload', 'diffed');
  throwIfViolations(afterViolations, 'the new payload', 'diffed');
  const counts = Object.fromEntries(ENTITY_KINDS.map((k) => [k, countsOf(out.byKind[k])])) as Record<
    EntityKind,
    KindCounts
  >;
  const all = Object.values(counts);
  const totals = {
    added: all.reduce((n, c) => n + c.added, 0),
    removed: all.reduce((n, c) => n + c.removed, 0),
    changed: all.reduce((n, c) => n + c.changed, 0),
  };
  const headerChanged = encodeHeader(spec, before) !== encodeHeader(spec, after);
  const isEmpty = !headerChanged && totals.added + totals.removed + totals.changed === 0;
  return { template, headerChanged, byKind: out.byKind, counts, totals, isEmpty };
}
