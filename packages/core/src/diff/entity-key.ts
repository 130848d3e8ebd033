/**
 * Keys of entities and the index of an entity collection by key, with the structural problems
 * (not a list, an entity without a key, two entities with one key) reported as violations.
 */

import type { Violation } from '../errors.js';
import type { KindSpec } from './entity-kinds.js';
import { isJsonObject, joinPath, type JsonObject } from './json.js';

/**
 * One entity of a collection with its position and key. The key is unique within the collection:
 * the key field and its lower-cased value (see `displayKey` for the value alone).
 */
export interface IndexedEntity {
  readonly entity: JsonObject;
  /** Position in the collection's list; the entity's path is `${collectionPath}[${index}]`. */
  readonly index: number;
  readonly key: string;
}

/** Between a key field's name and its value in a key (`name\u0000bob`). */
export const KEY_SEPARATOR = '\u0000';

/** What a key field's value reads as in a key: a non-empty string lower-cased, a finite number. */
export function keyText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value.toLowerCase();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The key of `entity`, or `undefined` when it has none. */
export function keyOf(spec: KindSpec, entity: JsonObject): string | undefined {
  const rule = spec.key;
  if ('pair' in rule) {
    const id = keyText(entity[rule.pair.id]);
    return id === undefined ? undefined : `${keyText(entity[rule.pair.type]) ?? ''}:${id}`;
  }
  for (const field of rule.first) {
    const value = keyText(entity[field]);
    if (value !== undefined) return `${field}${KEY_SEPARATOR}${value}`;
  }
  return undefined;
}

/** A key for people: the lower-cased key value, e.g. `bob`, or `local_user:bob` for a pair key. */
export function displayKey(spec: KindSpec, key: string): string {
  return 'pair' in spec.key ? key : key.slice(key.indexOf(KEY_SEPARATOR) + 1);
}

/** The last-resort key field, where a violation about a missing key points. */
export function keyFieldOf(spec: KindSpec): string {
  const rule = spec.key;
  return 'pair' in rule ? rule.pair.id : (rule.first[rule.first.length - 1] ?? 'name');
}

/** Describes the missing key of a `spec` entity, e.g. `local user has no unique_id or name`. */
export function missingKeyDescription(spec: KindSpec): string {
  const rule = spec.key;
  const fields = 'pair' in rule ? [rule.pair.id] : rule.first;
  return `${spec.label} has no ${fields.join(' or ')}; it cannot be identified`;
}

/** The identifying fields of `entity` that hold a value: all that a delete or tag entry carries. */
export function identifyingFields(spec: KindSpec, entity: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const field of spec.identifying) {
    const value = entity[field];
    if (value !== null && value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * Calls `visit` for each entity of a collection field; `null` or missing means none. Reports a
 * value that is not a list, and items that are not objects (which are skipped).
 */
export function forEachEntity(
  value: unknown,
  path: string,
  violations: Violation[],
  visit: (entity: JsonObject, index: number) => void,
): void {
  if (value === null || value === undefined) return;
  if (!Array.isArray(value)) {
    violations.push({ field: path, description: 'must be a list of entities' });
    return;
  }
  const items = value as unknown[];
  for (let index = 0; index < items.length; index++) {
    const entity = items[index];
    if (isJsonObject(entity)) visit(entity, index);
    else violations.push({ field: `${path}[${index}]`, description: 'must be an object' });
  }
}

/**
 * Indexes the entities of a collection value by key, in list order. Entities without a key and
 * repeated keys are reported and left out of the index.
 */
export function indexCollection(
  spec: KindSpec,
  value: unknown,
  path: string,
  violations: Violation[],
): Map<string, IndexedEntity> {
  const index = new Map<string, IndexedEntity>();
  forEachEntity(value, path, violations, (entity, i) => {
    const key = keyOf(spec, entity);
    if (key === undefined) {
      violations.push({
        field: joinPath(`${path}[${i}]`, keyFieldOf(spec)),
        description: missingKeyDescription(spec),
      });
      return;
    }
    const first = index.get(key);
    if (first !== undefined) {
      violations.push({
        field: `${path}[${i}]`,
        description: `${spec.label} '${displayKey(spec, key)}' appears more than once (first at ${path}[${first.index}]); keys compare case-insensitively`,
      });
      return;
    }
    index.set(key, { entity, index: i, key });
  });
  return index;
}
