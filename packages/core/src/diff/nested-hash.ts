/**
 * The hash of an entity with nested entity collections (an application, a resource): the hash of
 * its own data (`value-hash.ts`) and, for each nested collection that holds entities, the
 * collection's field name and its multiset hash. Nested collections that are empty (or missing)
 * add nothing, so an entity without nested entities hashes as its own data alone, like a leaf: a
 * resource with no sub-resources costs no more than a user. Computed from numbers (no text).
 */
import { HASH_WORDS, hashUnits } from './hash128.js';
import type { MultisetHash } from './multiset-hash.js';

/** One nested collection of an entity and the hashes of its entities. */
export interface NestedSet {
  readonly field: string;
  readonly set: MultisetHash;
}

/** Code units `MultisetHash.writeUnits` writes: the count (4) and the sum (8). */
const MULTISET_UNITS = 12;

let scratch = new Uint16Array(256);

function room(n: number): void {
  if (n > scratch.length) {
    const bigger = new Uint16Array(Math.max(n, scratch.length * 2));
    bigger.set(scratch);
    scratch = bigger;
  }
}

/**
 * The 128-bit hash of an entity whose own data hashed to `own` (four words) and whose nested
 * collections are `children`, into `HASH_WORDS` (valid until the next hash) and returned. Each
 * non-empty collection is spelled as its field name, a 0 unit, its count and its sum, so no two
 * different sets of collections spell the same units.
 */
export function nestedHash(own: Uint32Array, children: readonly NestedSet[]): Uint32Array {
  let n = 0;
  room(8);
  for (let w = 0; w < 4; w++) {
    scratch[n++] = own[w]! & 0xffff;
    scratch[n++] = own[w]! >>> 16;
  }
  for (const { field, set } of children) {
    if (set.count === 0) continue;
    room(n + field.length + 1 + MULTISET_UNITS);
    for (let i = 0; i < field.length; i++) scratch[n++] = field.charCodeAt(i);
    scratch[n++] = 0;
    n = set.writeUnits(scratch, n);
  }
  if (n === 8) {
    HASH_WORDS.set(own.subarray(0, 4));
    return HASH_WORDS;
  }
  return hashUnits(scratch, n);
}
