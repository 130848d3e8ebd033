/**
 * Sorted keys of an object, cheaply. Entities of one payload share a handful of shapes (the same
 * keys in the same insertion order), so the sorted order of each shape is remembered and found by
 * comparing key lists, which costs far less than sorting every object's keys again.
 */

interface Shape {
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
}

const MAX_SHAPES = 32;
const shapes: Shape[] = [];
let nextSlot = 0;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `Object.keys(object)` in sorted order (UTF-16 code unit order, as `Array.prototype.sort`). */
export function sortedKeys(object: object): readonly string[] {
  const keys = Object.keys(object);
  for (const shape of shapes) if (sameKeys(shape.keys, keys)) return shape.sorted;
  const sorted = [...keys].sort();
  // Round-robin replacement keeps the cache useful when a long-lived process meets new shapes.
  shapes[nextSlot] = { keys, sorted };
  nextSlot = (nextSlot + 1) % MAX_SHAPES;
  return sorted;
}

const MAX_QUOTED = 4096;
const quoted = new Map<string, string>();

/** `JSON.stringify(key)`, remembered for the field names that recur in every entity. */
export function quoteKey(key: string): string {
  let text = quoted.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (quoted.size < MAX_QUOTED) quoted.set(key, text);
  }
  return text;
}
