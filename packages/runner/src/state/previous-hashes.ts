/**
 * The entities of the last push, held while a run reads the new payload, for the diff: per entity
 * a 64-bit hash of its identity (kind, scope, key) and its own hash, four 32-bit words, in one
 * typed array in the snapshot's order. A run reads its payload in the order of the last one, so
 * each entity of the new payload is nearly always the next one in that array: compared, not looked
 * up. Only when the order is left (entities added, removed or moved) is an index built, a table
 * of positions by identity. That is 16-32 bytes an entity (and 5-11 with the index) and no string
 * (bench-app-1,000,000, 2.3 million entities: 37-67 MB), where maps of key strings took about 100
 * bytes an entity and a garbage-collected object each. Names are not held: the few a report lists (removed entities) are
 * read again from the snapshot (`missingNames`).
 */
import { ENTITY_KIND_INDEX, ENTITY_KINDS, fmix, type EntityKind } from '@oaakit/core';

/** One entity of the last push as its snapshot tells it. */
export interface PreviousEntity {
  kind: EntityKind;
  /** The identity of the entity it sits in (see core's `EntityHash.scope`). */
  scope: string;
  /** The entity's key, lower-cased (`name\u0000bob`). */
  key: string;
  /** Its name as written, else what the key reads as. */
  label: string;
  /** Its own hash (core's `EntityHash.own`). */
  own: number;
}

/** Reads the entities of the last push again, in the order the snapshot has them. */
export type PreviousEntitySource = () => AsyncIterable<PreviousEntity> | Iterable<PreviousEntity>;

/** The kind's bits in an entity's flags (its index + 1). */
const KIND_BITS = 0x3f;
/** Set in an entity's flags once it was found in the new payload. */
const FOUND = 0x80;
/** Set for an entity whose identity was added again later (the later one stands for both). */
const SHADOWED = 0x40;
/** Words per entity. */
const WORDS = 4;
const MIN_ENTITIES = 1024;
const MIN_SLOTS = 1024;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/**
 * The 64-bit hash of an entity's identity (kind, scope, key) in two 32-bit lanes, `a` and `b`,
 * valid until the next call. The kind seeds it, then the scope, then the key, two code units a
 * step; the lanes after the kind and the scope are kept, as entities of one scope come in runs.
 */
class IdentityHash {
  a = 0;
  b = 0;
  /** The kind and scope hashed last, and the lanes after them. */
  private lastKind = -1;
  private lastScope = '';
  private scopeA = 0;
  private scopeB = 0;

  /** Hashes an identity whose key is `keyPrefix + keyValue` (hashed without joining them). */
  of(kind: number, scope: string, keyPrefix: string, keyValue: string): void {
    this.kindAndScope(kind, scope);
    this.mix(keyPrefix, keyValue);
  }

  /**
   * `of` with the key given as bytes `from` to `to` of `bytes`, every one of them ASCII (the
   * caller's promise): the same lanes as `of` the text those bytes spell.
   */
  ofAscii(kind: number, scope: string, bytes: Uint8Array, from: number, to: number): void {
    this.kindAndScope(kind, scope);
    let a = this.a;
    let b = this.b;
    const n = to - from;
    let i = from;
    for (; i + 1 < to; i += 2) {
      const k = bytes[i]! | (bytes[i + 1]! << 16);
      a = Math.imul(a ^ k, C1);
      a = (a << 13) | (a >>> 19);
      b = Math.imul(b ^ k, C2);
      b = (b << 15) | (b >>> 17);
    }
    if (i < to) {
      const k = bytes[i]!;
      a = Math.imul(a ^ k, C1);
      b = Math.imul(b ^ k, C2);
    }
    this.a = fmix(a ^ n);
    this.b = fmix(b + n);
  }

  /** Hashes the kind and the scope into the lanes, from the last ones when they are the same. */
  private kindAndScope(kind: number, scope: string): void {
    if (kind === this.lastKind && scope === this.lastScope) {
      this.a = this.scopeA;
      this.b = this.scopeB;
      return;
    }
    this.a = 0x6a09e667 ^ kind;
    this.b = 0x3c6ef372 + kind;
    this.mix(scope, '');
    this.lastKind = kind;
    this.lastScope = scope;
    this.scopeA = this.a;
    this.scopeB = this.b;
  }

  /** Mixes the code units of `s`, then those of `t`, into the lanes, two units a step. */
  private mix(s: string, t: string): void {
    let a = this.a;
    let b = this.b;
    const ns = s.length;
    const n = ns + t.length;
    let i = 0;
    for (; i + 1 < n; i += 2) {
      const lo = i < ns ? s.charCodeAt(i) : t.charCodeAt(i - ns);
      const hi = i + 1 < ns ? s.charCodeAt(i + 1) : t.charCodeAt(i + 1 - ns);
      const k = lo | (hi << 16);
      a = Math.imul(a ^ k, C1);
      a = (a << 13) | (a >>> 19);
      b = Math.imul(b ^ k, C2);
      b = (b << 15) | (b >>> 17);
    }
    if (i < n) {
      const k = i < ns ? s.charCodeAt(i) : t.charCodeAt(i - ns);
      a = Math.imul(a ^ k, C1);
      b = Math.imul(b ^ k, C2);
    }
    this.a = fmix(a ^ n);
    this.b = fmix(b + n);
  }
}

/**
 * The last push's entities, by identity. Filled by the snapshot reader (`add`), then asked by the
 * diff (`take`, once per entity of the new payload; what was never taken was removed).
 */
export class PreviousHashes {
  /** Hash of the last push's header (top-level fields that are not entity collections). */
  header = '';
  /**
   * The entities in the order they were added (the snapshot's), four words each: the identity's
   * two lanes, the own hash's first 32 bits, and its next 20 bits above the flags (the low 8 bits:
   * the kind's index + 1, `FOUND` once taken, `SHADOWED` for an identity added again later).
   */
  private entities = new Int32Array(MIN_ENTITIES * WORDS);
  private count = 0;
  /** Where the next entity of the new payload is expected: it is read in the order of the last. */
  private cursor = 0;
  /** Open-addressing table of entity positions + 1, built the first time the order is left. */
  private index: Int32Array | undefined;
  /** The identity being added or asked for. */
  private readonly id = new IdentityHash();

  /**
   * @param source Reads the entities again, for the names of removed ones, in the order they were
   *   added.
   */
  constructor(private readonly source: PreviousEntitySource) {}

  /** Entities held (an identity added twice counts once). */
  get size(): number {
    this.buildIndex();
    let n = 0;
    for (let w = 3; w < this.count * WORDS; w += WORDS) if ((this.entities[w]! & SHADOWED) === 0) n++;
    return n;
  }

  /** Adds an entity of the last push (a second one with the same identity replaces the first). */
  add(kind: EntityKind, scope: string, key: string, own: number): void {
    const k = ENTITY_KIND_INDEX.get(kind) ?? 0;
    this.id.of(k, scope, key, '');
    this.append(k, own);
  }

  /**
   * `add` with the key given as bytes `from` to `to` of `bytes`, every one of them ASCII (the
   * snapshot reader's fast path: no string is made for the key).
   */
  addAscii(kind: EntityKind, scope: string, bytes: Uint8Array, from: number, to: number, own: number): void {
    const k = ENTITY_KIND_INDEX.get(kind) ?? 0;
    this.id.ofAscii(k, scope, bytes, from, to);
    this.append(k, own);
  }

  /** Appends the entity whose identity was hashed last (`id`). */
  private append(k: number, own: number): void {
    if ((this.count + 1) * WORDS > this.entities.length) {
      const bigger = new Int32Array(this.entities.length * 2);
      bigger.set(this.entities);
      this.entities = bigger;
    }
    const w = this.count++ * WORDS;
    const entities = this.entities;
    entities[w] = this.id.a;
    entities[w + 1] = this.id.b;
    // `own` holds 52 bits: 32 above, 20 below.
    entities[w + 2] = Math.floor(own / 0x100000) | 0;
    entities[w + 3] = ((own % 0x100000) << 8) | (k + 1);
    this.index = undefined;
  }

  /**
   * Indexes every entity by identity, once. An identity added again shadows the one before it,
   * which passes on whether it was taken.
   */
  private buildIndex(): void {
    if (this.index !== undefined) return;
    let slots = MIN_SLOTS;
    while (slots * 3 < this.count * 4) slots *= 2;
    const index = new Int32Array(slots);
    const entities = this.entities;
    for (let i = 0; i < this.count; i++) {
      const w = i * WORDS;
      const at = this.probe(index, entities[w]!, entities[w + 1]!);
      const before = index[at]! - 1;
      if (before >= 0) {
        const shadowed = before * WORDS + 3;
        entities[w + 3] = entities[w + 3]! | (entities[shadowed]! & FOUND);
        entities[shadowed] = entities[shadowed]! | SHADOWED;
      }
      index[at] = i + 1;
    }
    this.index = index;
  }

  /** The slot of `index` that holds the identity (a, b), or the empty slot where it would go. */
  private probe(index: Int32Array, a: number, b: number): number {
    const mask = index.length - 1;
    const entities = this.entities;
    let at = (a ^ Math.imul(b, C1)) & mask;
    for (;;) {
      const i = index[at]! - 1;
      if (i < 0 || (entities[i * WORDS] === a && entities[i * WORDS + 1] === b)) return at;
      at = (at + 1) & mask;
    }
  }

  /** The position of the entity whose identity is (a, b), or -1. */
  private find(a: number, b: number): number {
    const w = this.cursor * WORDS;
    // Nearly always the next one in order: no lookup, no cache miss.
    if (this.cursor < this.count && this.entities[w] === a && this.entities[w + 1] === b)
      return (this.entities[w + 3]! & SHADOWED) === 0 ? this.cursor : this.lookup(a, b);
    return this.lookup(a, b);
  }

  private lookup(a: number, b: number): number {
    this.buildIndex();
    return this.index![this.probe(this.index!, a, b)]! - 1;
  }

  /** The own hash at position `i`. */
  private own(i: number): number {
    const w = i * WORDS;
    return (this.entities[w + 2]! >>> 0) * 0x100000 + (this.entities[w + 3]! >>> 8);
  }

  /**
   * The own hash (core's `EntityHash.own`) the last push had for this entity of the new payload (its key is
   * `keyPrefix + keyValue`, see core's `EntityHash`), marking it found; `undefined` for an entity
   * the last push did not have.
   */
  take(kind: EntityKind, scope: string, keyPrefix: string, keyValue = ''): number | undefined {
    const k = ENTITY_KIND_INDEX.get(kind);
    if (k === undefined) return undefined;
    this.id.of(k, scope, keyPrefix, keyValue);
    const i = this.find(this.id.a, this.id.b);
    if (i < 0) return undefined;
    this.cursor = i + 1;
    this.entities[i * WORDS + 3] = this.entities[i * WORDS + 3]! | FOUND;
    return this.own(i);
  }

  /** Whether the entity at position `i` is one of the last push's that was never taken. */
  private isMissing(i: number): boolean {
    return (this.entities[i * WORDS + 3]! & (FOUND | SHADOWED)) === 0;
  }

  /** Entities of the last push never taken, per kind. */
  missing(): Map<EntityKind, number> {
    const out = new Map<EntityKind, number>();
    // Shadowed identities are only known once indexed; an index is needed only if some are left.
    if (!this.anyLeft()) return out;
    this.buildIndex();
    for (let i = 0; i < this.count; i++) {
      if (!this.isMissing(i)) continue;
      const kind = ENTITY_KINDS[(this.entities[i * WORDS + 3]! & KIND_BITS) - 1]!;
      out.set(kind, (out.get(kind) ?? 0) + 1);
    }
    return out;
  }

  private anyLeft(): boolean {
    for (let i = 0; i < this.count; i++) if (this.isMissing(i)) return true;
    return false;
  }

  /**
   * Labels of the entities never taken, at most `max` per kind, in snapshot order: the snapshot is
   * read again (in the order the entities were added), and only the listed names are held.
   */
  async missingNames(max: number): Promise<Map<EntityKind, string[]>> {
    const wanted = this.missing();
    const out = new Map<EntityKind, string[]>();
    let left = 0;
    for (const n of wanted.values()) left += Math.min(n, max);
    if (left === 0) return out;
    let i = 0;
    for await (const e of this.source()) {
      if (i >= this.count) break;
      if (!this.isMissing(i++)) continue;
      const names = out.get(e.kind) ?? [];
      if (names.length >= max) continue;
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
