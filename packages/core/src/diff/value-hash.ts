/**
 * The hash of an entity's own data, computed from its values as they are: no canonical text is
 * written, no keys are sorted. It stands for the canonical text of `canonical.ts` (two entities
 * get the same hash exactly when `encodeFields` spells them the same, but for accidental
 * collisions), because it follows the same rules:
 *
 * - an object is the order-independent sum of the hashes of its used fields (each field's name
 *   mixed with its value), so key order does not matter and no sort is needed;
 * - values that mean "unused" (null, undefined, `[]`, an object with no used field, a function, a
 *   non-finite number) are left out of objects and stand as `null` in lists;
 * - lists keep their order; `toJSON` is applied; a number and a BigInt of the same digits are equal,
 *   as their text is; a `tags` field compares as a set (its canonical text is hashed).
 *
 * Each value is hashed in two 32-bit lanes (MurmurHash3's x86 mixing, each lane added into the
 * other), strings four UTF-16 code units per step, read with `charCodeAt` in place.
 * The 64 bits are spread over four words so that the result fits `HASH_WORDS` and `MultisetHash`.
 * Like the other hashes of `hash128.ts`, it tells a change; it does not authenticate data.
 */

import { encodeTags } from './canonical.js';
import { isDeepFrozen } from '../internal/frozen.js';
import { fmix, HASH_WORDS } from './hash128.js';

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const C3 = 0x85ebca6b;
const C4 = 0xc2b2ae35;

/** Seeds that keep apart values of different types that would hash the same units. */
const SEED_STRING = 0x2f6b1a3d;
const SEED_NUMBER = 0x5bd1e995;
const SEED_KEY = 0x7a3c91e5;
const SEED_TAGS = 0x3c6ef372;
const SEED_LIST = 0x6a09e667;
const SEED_OBJECT = 0x510e527f;
const TRUE_A = 0x1f83d9ab;
const TRUE_B = 0x5be0cd19;
const FALSE_A = 0x428a2f98;
const FALSE_B = 0x71374491;
const NULL_A = 0x3956c25b;
const NULL_B = 0x59f111f1;
/** An entity with no used own field, as the text `{}` stands for it. */
const EMPTY_A = 0x923f82a4;
const EMPTY_B = 0xab1c5ed5;

/** The two lanes of the last value hashed; read right after the call that set them. */
let ha = 0;
let hb = 0;

/**
 * Hashes the code units of `s` with `seed` into (ha, hb): four units (two 32-bit words, one per
 * lane) per step, each lane mixed into the other as MurmurHash3's x86 128-bit variant does.
 */
function hashString(s: string, seed: number): void {
  let a = seed;
  let b = ~seed;
  const n = s.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    let ka = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    let kb = s.charCodeAt(i + 2) | (s.charCodeAt(i + 3) << 16);
    ka = Math.imul(ka, C1);
    ka = Math.imul((ka << 15) | (ka >>> 17), C2);
    a ^= ka;
    a = (Math.imul(((a << 19) | (a >>> 13)) + b, 5) + 0x561ccd1b) | 0;
    kb = Math.imul(kb, C2);
    kb = Math.imul((kb << 16) | (kb >>> 16), C1);
    b ^= kb;
    b = (Math.imul(((b << 17) | (b >>> 15)) + a, 5) + 0x0bcaa747) | 0;
  }
  if (i < n) {
    // The tail: one to three units, in the words they fall in; 0 past the end.
    if (i + 2 < n) {
      const kb = Math.imul(s.charCodeAt(i + 2), C2);
      b ^= Math.imul((kb << 16) | (kb >>> 16), C1);
    }
    let ka = s.charCodeAt(i) | (i + 1 < n ? s.charCodeAt(i + 1) << 16 : 0);
    ka = Math.imul(ka, C1);
    a ^= Math.imul((ka << 15) | (ka >>> 17), C2);
  }
  a ^= n;
  b ^= n;
  a = (a + b) | 0;
  b = (b + a) | 0;
  a = fmix(a);
  b = fmix(b);
  ha = (a + b) | 0;
  hb = (b + ha) | 0;
}

type ToJson = { toJSON(): unknown };

/** Hashes `value` into (ha, hb); false (nothing set) when the value is unused. */
function hashValue(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      hashString(value, SEED_STRING);
      return true;
    case 'number':
      if (!Number.isFinite(value)) return false;
      hashString(String(value), SEED_NUMBER);
      return true;
    case 'boolean':
      ha = value ? TRUE_A : FALSE_A;
      hb = value ? TRUE_B : FALSE_B;
      return true;
    case 'bigint':
      hashString(value.toString(), SEED_NUMBER);
      return true;
    case 'object':
      break;
    case 'function':
    case 'symbol':
    case 'undefined':
      return false;
  }
  if (value === null) return false;
  if (Object.isFrozen(value)) return hashFrozen(value);
  return hashObject(value);
}

function hashObject(value: object): boolean {
  if (typeof (value as Partial<ToJson>).toJSON === 'function') return hashValue((value as ToJson).toJSON());
  if (Array.isArray(value)) return hashList(value);
  return hashFieldsOf(value as Record<string, unknown>, undefined, false);
}

/** The lanes of a value hashed before. */
interface Lanes {
  readonly a: number;
  readonly b: number;
}

/** Stands for a value that is unused (hashes to nothing). */
const UNUSED: Lanes = { a: 0, b: 0 };

/**
 * Lanes of deeply frozen values (see `isDeepFrozen`) hashed before: payloads share such values
 * between entities (the builders share one frozen grant list among every identity that holds it),
 * and each is hashed once. An entry lives as long as its value.
 */
const FROZEN = new WeakMap<object, Lanes>();

function hashFrozen(value: object): boolean {
  const kept = FROZEN.get(value);
  if (kept !== undefined) {
    if (kept === UNUSED) return false;
    ha = kept.a;
    hb = kept.b;
    return true;
  }
  const used = hashObject(value);
  if (isDeepFrozen(value)) FROZEN.set(value, used ? { a: ha, b: hb } : UNUSED);
  return used;
}

/** A list in order, unused items as null; false for an empty list. */
function hashList(list: readonly unknown[]): boolean {
  const n = list.length;
  if (n === 0) return false;
  let a = SEED_LIST;
  let b = ~SEED_LIST;
  for (let i = 0; i < n; i++) {
    let ia = NULL_A;
    let ib = NULL_B;
    if (hashValue(list[i])) {
      ia = ha;
      ib = hb;
    }
    a ^= fmix(ia);
    a = (Math.imul((a << 13) | (a >>> 19), 5) + 0xe6546b64) | 0;
    b ^= fmix(ib + C2);
    b = (Math.imul((b << 11) | (b >>> 21), 5) + 0x0bcaa747) | 0;
  }
  a = fmix(a ^ n);
  b = fmix(b ^ n);
  ha = (a + b) | 0;
  hb = (b + ha) | 0;
  return true;
}

/** Field names already hashed (a payload repeats a few dozen names millions of times): name -> index. */
const KEY_INDEX = new Map<string, number>();
const MAX_KEYS_KEPT = 4096;
/** Lanes of the names in `KEY_INDEX`, two per name; the last two slots are scratch for the rest. */
const KEY_LANES = new Int32Array(2 * MAX_KEYS_KEPT + 2);

/** Index in `KEY_LANES` of the lanes of field name `field`. */
function keyLanes(field: string): number {
  let k = KEY_INDEX.get(field);
  if (k !== undefined) return k;
  hashString(field, SEED_KEY);
  k = KEY_INDEX.size < MAX_KEYS_KEPT ? 2 * KEY_INDEX.size : 2 * MAX_KEYS_KEPT;
  if (k < 2 * MAX_KEYS_KEPT) KEY_INDEX.set(field, k);
  KEY_LANES[k] = ha;
  KEY_LANES[k + 1] = hb;
  return k;
}

/**
 * What the field at a position of an object at a depth was last time: objects of one shape list
 * their fields in one order, so a field is recognised by comparing it with the last one there
 * (the same string, nearly always) instead of looking it up. Per slot: the name, the `skip` set it
 * was judged against, and its index in `KEY_LANES` (-1: skipped).
 */
const MEMO_DEPTHS = 4;
const MEMO_FIELDS = 16;
const memoField: (string | undefined)[] = new Array<string | undefined>(MEMO_DEPTHS * MEMO_FIELDS).fill(
  undefined,
);
const memoSkip: (ReadonlySet<string> | undefined)[] = new Array<ReadonlySet<string> | undefined>(
  MEMO_DEPTHS * MEMO_FIELDS,
).fill(undefined);
const memoLanes = new Int32Array(MEMO_DEPTHS * MEMO_FIELDS);
/** Depth of the object being hashed (0: the entity). */
let depth = 0;

/** Index in `KEY_LANES` of `field`, or -1 when it is in `skip`; remembered in memo slot `m` (if >= 0). */
function fieldLanes(field: string, skip: ReadonlySet<string> | undefined, m: number): number {
  if (m >= 0 && memoField[m] === field && memoSkip[m] === skip) return memoLanes[m]!;
  const k = skip !== undefined && skip.has(field) ? -1 : keyLanes(field);
  // The scratch slot past the kept names is overwritten by the next new name: not remembered.
  if (m >= 0 && k < 2 * MAX_KEYS_KEPT) {
    memoField[m] = field;
    memoSkip[m] = skip;
    memoLanes[m] = k;
  }
  return k;
}

/**
 * An object's used fields but those in `skip`, as an order-independent sum of field hashes; a
 * `tags` field hashed as a set when `tagsAsSet`. False when no field is used.
 */
function hashFieldsOf(
  object: Record<string, unknown>,
  skip: ReadonlySet<string> | undefined,
  tagsAsSet: boolean,
): boolean {
  let sumA = 0;
  let sumB = 0;
  let used = 0;
  const base = depth < MEMO_DEPTHS ? depth * MEMO_FIELDS : -1;
  let position = 0;
  depth++;
  try {
    for (const field in object) {
      if (!Object.prototype.hasOwnProperty.call(object, field)) continue;
      const k = fieldLanes(field, skip, base >= 0 && position < MEMO_FIELDS ? base + position : -1);
      position++;
      if (k < 0) continue;
      const fa = KEY_LANES[k]!;
      const fb = KEY_LANES[k + 1]!;
      const value = object[field];
      if (tagsAsSet && field === 'tags') {
        const text = encodeTags(value);
        if (text === undefined) continue;
        hashString(text, SEED_TAGS);
      } else if (!hashValue(value)) continue;
      const va = ha;
      const vb = hb;
      // The name and the value mixed together, so that values swapped between fields differ.
      sumA = (sumA + fmix((fa ^ Math.imul(va, C1)) + ((vb << 7) | (vb >>> 25)))) | 0;
      sumB = (sumB + fmix((fb + Math.imul(vb, C4)) ^ ((va << 13) | (va >>> 19)))) | 0;
      used++;
    }
  } finally {
    depth--;
  }
  if (used === 0) return false;
  const a = fmix((sumA ^ SEED_OBJECT) + Math.imul(used, C2));
  const b = fmix((sumB + ~SEED_OBJECT) ^ Math.imul(used, C3));
  ha = (a + b) | 0;
  hb = (b + ha) | 0;
  return true;
}

/**
 * The hash of an object's own fields (those not in `skip`; `tags` as a set when `tagsAsSet`): the
 * same for two objects whose `encodeFields(object, skip, tagsAsSet)` text is the same. Written into
 * `HASH_WORDS` (valid until the next hash) and returned.
 */
export function hashOwnFields(
  object: Record<string, unknown>,
  skip: ReadonlySet<string>,
  tagsAsSet: boolean,
): Uint32Array {
  let a = EMPTY_A;
  let b = EMPTY_B;
  if (hashFieldsOf(object, skip, tagsAsSet)) {
    a = ha;
    b = hb;
  }
  HASH_WORDS[0] = a;
  HASH_WORDS[1] = b;
  HASH_WORDS[2] = fmix(a ^ C1) + b;
  HASH_WORDS[3] = fmix(b ^ C2) + a;
  return HASH_WORDS;
}
