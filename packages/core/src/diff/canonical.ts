/**
 * Canonical JSON text: object keys sorted, and values that mean "unused" in the service's
 * conventions (null, an empty list, an empty object) dropped from objects, so that two payloads
 * that say the same thing produce the same text.
 */

import { quoteKey, sortedKeys } from './sorted-keys.js';
import { encodeTagSet, tagSet } from './tags.js';

type ToJson = { toJSON(): unknown };

function hasToJson(value: object): value is ToJson {
  return typeof (value as Partial<ToJson>).toJSON === 'function';
}

/**
 * Canonical text of `value`, or `undefined` when the value is "unused" (null, undefined, an empty
 * list, an object with no used field, or anything JSON cannot hold).
 */
export function encodeValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    case 'function':
    case 'symbol':
    case 'undefined':
      return undefined;
  }
  if (value === null) return undefined;
  if (hasToJson(value)) return encodeValue(value.toJSON());
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i === 0 ? '' : ','}${encodeValue(value[i]) ?? 'null'}`;
    return `${out}]`;
  }
  return encodeFields(value as Record<string, unknown>);
}

/**
 * Canonical text of an object's fields except those in `skip`; a `tags` field compares as a set
 * when `tagsAsSet`. `undefined` when no field is used.
 */
export function encodeFields(
  object: Record<string, unknown>,
  skip?: ReadonlySet<string>,
  tagsAsSet = false,
): string | undefined {
  let out = '';
  for (const field of sortedKeys(object)) {
    if (skip?.has(field) === true) continue;
    const encoded = tagsAsSet && field === 'tags' ? encodeTags(object[field]) : encodeValue(object[field]);
    if (encoded === undefined) continue;
    out += `${out === '' ? '{' : ','}${quoteKey(field)}:${encoded}`;
  }
  return out === '' ? undefined : `${out}}`;
}

/** Canonical text of a `tags` field: a set of pairs; `undefined` for no tags. */
export function encodeTags(tags: unknown): string | undefined {
  const pairs = tagSet(tags);
  if (pairs === undefined) return encodeValue(tags);
  return pairs.length === 0 ? undefined : encodeTagSet(pairs);
}

/** Canonical JSON text of any value (`null` for an unused value). */
export function canonicalJson(value: unknown): string {
  return encodeValue(value) ?? 'null';
}
