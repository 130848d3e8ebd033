/**
 * The canonical text of `canonical.ts`, written as UTF-16 code units into one reused buffer
 * instead of built as strings: hashing an entity this way allocates nothing per entity but the
 * text of its numbers. `encodeFields` and this writer must spell the same text (a test checks it).
 */

import { quoteKey, sortedKeys } from './sorted-keys.js';
import { encodeTags } from './canonical.js';
import { hashUnits } from './hash128.js';

const INITIAL = 4096;
/** Code units kept between entities; a larger buffer (a huge entity) is let go after it. */
const MAX_KEPT = 1 << 20;
let units = new Uint16Array(INITIAL);
let at = 0;

function room(n: number): void {
  if (at + n <= units.length) return;
  const grown = new Uint16Array(Math.max(at + n, units.length * 2));
  grown.set(units.subarray(0, at));
  units = grown;
}

function putText(text: string): void {
  const n = text.length;
  room(n);
  for (let i = 0; i < n; i++) units[at + i] = text.charCodeAt(i);
  at += n;
}

function putUnit(unit: number): void {
  room(1);
  units[at++] = unit;
}

const HEX = '0123456789abcdef';

function putEscape(unit: number): void {
  putText('\\u00');
  putUnit(HEX.charCodeAt(unit >> 4));
  putUnit(HEX.charCodeAt(unit & 15));
}

/** Code units of a string given room at a time (bounds the buffer for a huge string). */
const STRETCH = 4096;

/** `JSON.stringify(text)`: a string written as JSON writes it (lone surrogates as `\udxxx`). */
function putString(text: string): void {
  room(1);
  const n = text.length;
  units[at++] = 0x22;
  let roomUntil = 0;
  for (let i = 0; i < n; i++) {
    if (i >= roomUntil) {
      // Room for the worst case of the next stretch: every code unit escaped as six.
      roomUntil = Math.min(n, i + STRETCH);
      room((roomUntil - i) * 6 + 1);
    }
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) {
      units[at++] = c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        putUnit(c);
        putUnit(next);
        i++;
      } else putText(`\\u${c.toString(16)}`);
    } else if (c === 0x22) putText('\\"');
    else if (c === 0x5c) putText('\\\\');
    else if (c === 0x08) putText('\\b');
    else if (c === 0x09) putText('\\t');
    else if (c === 0x0a) putText('\\n');
    else if (c === 0x0c) putText('\\f');
    else if (c === 0x0d) putText('\\r');
    else putEscape(c);
  }
  putUnit(0x22);
}

type ToJson = { toJSON(): unknown };

/** Writes the canonical text of `value`; false (nothing written) when the value is unused. */
function putValue(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      putString(value);
      return true;
    case 'number':
      if (!Number.isFinite(value)) return false;
      putText(JSON.stringify(value));
      return true;
    case 'boolean':
      putText(value ? 'true' : 'false');
      return true;
    case 'bigint':
      putText(value.toString());
      return true;
    case 'object':
      break;
    case 'function':
    case 'symbol':
    case 'undefined':
      return false;
  }
  if (value === null) return false;
  if (typeof (value as Partial<ToJson>).toJSON === 'function') return putValue((value as ToJson).toJSON());
  if (Array.isArray(value)) {
    if (value.length === 0) return false;
    putUnit(0x5b);
    for (let i = 0; i < value.length; i++) {
      if (i > 0) putUnit(0x2c);
      if (!putValue(value[i])) putText('null');
    }
    putUnit(0x5d);
    return true;
  }
  return putFields(value as Record<string, unknown>, undefined, false);
}

/**
 * What to write for one shape of object (its sorted keys, as `sortedKeys` remembers them) with one
 * `skip` set: the fields left, each with its `"name":` as code units.
 */
interface Plan {
  readonly sorted: readonly string[];
  readonly skip: ReadonlySet<string> | undefined;
  readonly fields: readonly string[];
  readonly keys: readonly Uint16Array[];
}

const MAX_PLANS = 64;
const plans: Plan[] = [];
let nextPlan = 0;

function planOf(sorted: readonly string[], skip: ReadonlySet<string> | undefined): Plan {
  for (const plan of plans) if (plan.sorted === sorted && plan.skip === skip) return plan;
  const fields = sorted.filter((field) => skip?.has(field) !== true);
  const keys = fields.map((field) => {
    const text = `${quoteKey(field)}:`;
    const key = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) key[i] = text.charCodeAt(i);
    return key;
  });
  const plan = { sorted, skip, fields, keys };
  plans[nextPlan] = plan;
  nextPlan = (nextPlan + 1) % MAX_PLANS;
  return plan;
}

/** Writes the canonical text of an object's fields (see `encodeFields`); false when none is used. */
function putFields(
  object: Record<string, unknown>,
  skip: ReadonlySet<string> | undefined,
  tagsAsSet: boolean,
): boolean {
  const start = at;
  let first = true;
  const { fields, keys } = planOf(sortedKeys(object), skip);
  for (let f = 0; f < fields.length; f++) {
    const field = fields[f]!;
    const key = keys[f]!;
    const mark = at;
    room(key.length + 1);
    units[at++] = first ? 0x7b : 0x2c;
    for (let i = 0; i < key.length; i++) units[at++] = key[i]!;
    let used: boolean;
    if (tagsAsSet && field === 'tags') {
      const tags = encodeTags(object[field]);
      used = tags !== undefined;
      if (used) putText(tags!);
    } else used = putValue(object[field]);
    if (used) first = false;
    else at = mark;
  }
  if (first) {
    at = start;
    return false;
  }
  putUnit(0x7d);
  return true;
}

/**
 * `hash128(encodeFields(object, skip, tagsAsSet) ?? '{}')`, without building the text: into
 * `HASH_WORDS`, valid until the next hash.
 */
export function hashFields(
  object: Record<string, unknown>,
  skip: ReadonlySet<string>,
  tagsAsSet: boolean,
): Uint32Array {
  at = 0;
  if (!putFields(object, skip, tagsAsSet)) putText('{}');
  const words = hashUnits(units, at);
  // An entity with huge values does not leave its buffer held.
  if (units.length > MAX_KEPT) units = new Uint16Array(INITIAL);
  return words;
}
