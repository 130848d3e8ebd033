/**
 * The entities of the last push, held while a run reads the new payload, for the diff: per entity
 * a 64-bit hash of its identity (kind, scope, key) and its own hash, in an open-addressing table
 * held in one typed array, four 32-bit words a slot (a lookup reads one cache line). That is 21-43
 * bytes an entity and no string (bench-app-1,000,000, 2.3 million entities: 67 MB), where maps of
 * key strings took about 100 bytes an entity and a garbage-collected object each. Names are not held: the few a report lists (removed entities) are
 * read again from the snapshot (`missingNames`).
 */
import { ENTITY_KINDS, type EntityKind } from '@oaakit/core';

/** One entity of the last push as its snapshot tells it. */
export interface PreviousEntity {
  kind: EntityKind;
  /** The identity of the entity it sits in (see core's `EntityHash.scope`). */
  scope: string;
  /** The entity's key, lower-cased (`name\u0000bob`). */
  key: string;
  /** Its name as written, else what the key reads as. */
  label: string;
  /** Its own hash as a number (see `ownNumber`). */
  own: number;
}

/** Reads the entities of the last push again, in the order the snapshot has them. */
export type PreviousEntitySource = () => AsyncIterable<PreviousEntity> | Iterable<PreviousEntity>;

const KIND_INDEX = new Map<EntityKind, number>(ENTITY_KINDS.map((kind, i) => [kind, i]));
/** Set in a slot's tag once the entity was found in the new payload. */
const FOUND = 0x80;
/** The tag's bits in a slot's last word. */
const TAG = 0xff;
/** Words per slot. */
const WORDS = 4;
const MIN_SLOTS = 1024;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The two lanes of the last identity hashed. */
let ha = 0;
let hb = 0;

/** Mixes the code units of `s`, then those of `t`, into the lanes (ha, hb), two units a step. */
function mix(s: string, t = ''): void {
  let a = ha;
  let b = hb;
  const ns = s.length;
  const n = ns + t.length;
  const at = (i: number): number => (i < ns ? s.charCodeAt(i) : t.charCodeAt(i - ns));
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const k = at(i) | (at(i + 1) << 16);
    a = Math.imul(a ^ k, C1);
    a = (a << 13) | (a >>> 19);
    b = Math.imul(b ^ k, C2);
    b = (b << 15) | (b >>> 17);
  }
  if (i < n) {
    const k = at(i);
    a = Math.imul(a ^ k, C1);
    b = Math.imul(b ^ k, C2);
  }
  ha = fmix(a ^ n);
  hb = fmix(b + n);
}

/** The kind and scope hashed last, and the lanes after them: entities of one scope come in runs. */
let lastKind = -1;
let lastScope = '';
let scopeA = 0;
let scopeB = 0;

/**
 * Hashes an identity into (ha, hb): the kind seeds it, then the scope, then the key
 * (`keyPrefix + keyValue`, hashed without joining them).
 */
function identity(kind: number, scope: string, keyPrefix: string, keyValue = ''): void {
  if (kind === lastKind && scope === lastScope) {
    ha = scopeA;
    hb = scopeB;
  } else {
    ha = 0x6a09e667 ^ kind;
    hb = 0x3c6ef372 + kind;
    mix(scope);
    lastKind = kind;
    lastScope = scope;
    scopeA = ha;
    scopeB = hb;
  }
  mix(keyPrefix, keyValue);
}

/**
 * The last push's entities, by identity. Filled by the snapshot reader (`add`), then asked by the
 * diff (`take`, once per entity of the new payload; what was never taken was removed).
 */
export class PreviousHashes {
  /** Hash of the last push's header (top-level fields that are not entity collections). */
  header = '';
  private slots = MIN_SLOTS;
  /**
   * Four words per slot, so that a lookup reads one cache line: the identity's two lanes, the
   * own hash's first 32 bits, and its next 20 bits above the tag (the low 8 bits: 0 for an empty
   * slot, else the kind's index + 1, with `FOUND` once taken).
   */
  private table = new Int32Array(MIN_SLOTS * WORDS);
  private count = 0;

  /**
   * False for a snapshot written with an earlier entity hash (formats v1 to v3): its own hashes
   * say nothing about today's, so the diff tells added and removed entities (by key) but counts
   * none as changed. The next snapshot is comparable again.
   */
  comparable = true;

  /** @param source Reads the entities again, for the names of removed ones. */
  constructor(private readonly source: PreviousEntitySource) {}

  /** Entities held. */
  get size(): number {
    return this.count;
  }

  /** The word offset of the identity in (ha, hb): where it is, or the empty slot where it would go. */
  private find(): number {
    const table = this.table;
    const mask = this.slots - 1;
    let at = (ha ^ Math.imul(hb, C1)) & mask;
    for (;;) {
      const w = at * WORDS;
      if ((table[w + 3]! & TAG) === 0 || (table[w] === ha && table[w + 1] === hb)) return w;
      at = (at + 1) & mask;
    }
  }

  /** Adds an entity of the last push (a second one with the same identity replaces the first). */
  add(kind: EntityKind, scope: string, key: string, own: number): void {
    if ((this.count + 1) * 4 > this.slots * 3) this.grow();
    const k = KIND_INDEX.get(kind) ?? 0;
    identity(k, scope, key);
    const w = this.find();
    const table = this.table;
    if ((table[w + 3]! & TAG) === 0) this.count++;
    table[w] = ha;
    table[w + 1] = hb;
    // `own` holds 52 bits: 32 above, 20 below.
    table[w + 2] = Math.floor(own / 0x100000) | 0;
    table[w + 3] = ((own % 0x100000) << 8) | (k + 1);
  }

  private grow(): void {
    const { table, slots } = this;
    this.slots = slots * 2;
    this.table = new Int32Array(this.slots * WORDS);
    for (let i = 0; i < slots * WORDS; i += WORDS) {
      if ((table[i + 3]! & TAG) === 0) continue;
      ha = table[i]!;
      hb = table[i + 1]!;
      const w = this.find();
      this.table.set(table.subarray(i, i + WORDS), w);
    }
  }

  /** The own hash held in the slot at word offset `w`, as `ownNumber` reads it. */
  private own(w: number): number {
    return (this.table[w + 2]! >>> 0) * 0x100000 + (this.table[w + 3]! >>> 8);
  }

  /**
   * The own hash (see `ownNumber`) the last push had for this entity of the new payload (its key is
   * `keyPrefix + keyValue`, see core's `EntityHash`), marking it found; `undefined` for an entity
   * the last push did not have.
   */
  take(kind: EntityKind, scope: string, keyPrefix: string, keyValue = ''): number | undefined {
    const k = KIND_INDEX.get(kind);
    if (k === undefined) return undefined;
    identity(k, scope, keyPrefix, keyValue);
    const w = this.find();
    const last = this.table[w + 3]!;
    if ((last & TAG) === 0) return undefined;
    this.table[w + 3] = last | FOUND;
    return this.own(w);
  }

  /** Whether this entity of the last push has been taken (looked up without taking it). */
  private taken(kind: EntityKind, scope: string, key: string): boolean {
    identity(KIND_INDEX.get(kind) ?? 0, scope, key);
    return (this.table[this.find() + 3]! & FOUND) !== 0;
  }

  /** Entities of the last push never taken, per kind. */
  missing(): Map<EntityKind, number> {
    const out = new Map<EntityKind, number>();
    const table = this.table;
    for (let i = 3; i < table.length; i += WORDS) {
      const tag = table[i]! & TAG;
      if (tag === 0 || (tag & FOUND) !== 0) continue;
      const kind = ENTITY_KINDS[(tag & ~FOUND) - 1]!;
      out.set(kind, (out.get(kind) ?? 0) + 1);
    }
    return out;
  }

  /**
   * Labels of the entities never taken, at most `max` per kind, in snapshot order: the snapshot is
   * read again, and only the listed names are held.
   */
  async missingNames(max: number): Promise<Map<EntityKind, string[]>> {
    const wanted = this.missing();
    const out = new Map<EntityKind, string[]>();
    let left = 0;
    for (const n of wanted.values()) left += Math.min(n, max);
    if (left === 0) return out;
    for await (const e of this.source()) {
      const names = out.get(e.kind) ?? [];
      if (names.length >= max || this.taken(e.kind, e.scope, e.key)) continue;
      names.push(e.label);
      out.set(e.kind, names);
      if (--left === 0) break;
    }
    return out;
  }

  /** Every entity of the last push, read again from the snapshot. */
  entries(): AsyncIterable<PreviousEntity> | Iterable<PreviousEntity> {
    return this.source();
  }
}
