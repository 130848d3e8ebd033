/**
 * Splits payloads and entities into their own data and their nested entity collections, and
 * compares the own data of two versions of an entity.
 */

import type { ChildCollection, KindSpec, TemplateSpec } from './entity-kinds.js';
import { encodeFields, encodeTags, encodeValue } from './canonical.js';
import type { JsonObject } from './json.js';
import { hashOwnFields } from './value-hash.js';

const skipCache = new WeakMap<readonly ChildCollection[], ReadonlySet<string>>();

/**
 * The fields that are not own data next to `children`: the nested collections, plus `extra`
 * (`operation` in an entity, `incremental_change` in a payload). Cached per spec.
 */
function notOwn(children: readonly ChildCollection[], extra: string): ReadonlySet<string> {
  let fields = skipCache.get(children);
  if (fields === undefined) {
    fields = new Set([...children.map((c) => c.field), extra]);
    skipCache.set(children, fields);
  }
  return fields;
}

function entitySkip(spec: KindSpec): ReadonlySet<string> {
  return notOwn(spec.children, 'operation');
}

function headerSkip(spec: TemplateSpec): ReadonlySet<string> {
  return notOwn(spec.collections, 'incremental_change');
}

/** True for a field of an entity that is its own data (not a nested collection, not `operation`). */
export function isOwnField(spec: KindSpec, field: string): boolean {
  return !entitySkip(spec).has(field);
}

/** True for a top-level field that is header data (not an entity collection, not `incremental_change`). */
export function isHeaderField(spec: TemplateSpec, field: string): boolean {
  return !headerSkip(spec).has(field);
}

/** The header of a payload: every top-level field that is not an entity collection. */
export function headerOf(spec: TemplateSpec, payload: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [field, value] of Object.entries(payload)) if (isHeaderField(spec, field)) out[field] = value;
  return out;
}

/** Canonical text of the header of a payload. */
export function encodeHeader(spec: TemplateSpec, payload: JsonObject): string {
  return encodeFields(payload, headerSkip(spec)) ?? '{}';
}

/** Canonical text of an entity's own data: its tags as a set, nested collections left out. */
export function encodeOwn(spec: KindSpec, entity: JsonObject): string {
  return encodeFields(entity, entitySkip(spec), true) ?? '{}';
}

/**
 * The hash of an entity's own data (see `value-hash.ts`): equal for two entities whose `encodeOwn`
 * text is equal, computed without that text (into `HASH_WORDS`, valid until the next hash).
 */
export function hashOwn(spec: KindSpec, entity: JsonObject): Uint32Array {
  return hashOwnFields(entity, entitySkip(spec), true);
}

function encodeField(entity: JsonObject, field: string): string | undefined {
  return field === 'tags' ? encodeTags(entity.tags) : encodeValue(entity[field]);
}

/** The own fields whose canonical value differs between two versions of an entity, sorted. */
export function ownChanges(spec: KindSpec, before: JsonObject, after: JsonObject): string[] {
  if (encodeOwn(spec, before) === encodeOwn(spec, after)) return [];
  const fields = new Set([...Object.keys(before), ...Object.keys(after)].filter((f) => isOwnField(spec, f)));
  return [...fields].filter((f) => encodeField(before, f) !== encodeField(after, f)).sort();
}
