/**
 * A hash table of names compared without regard to case, sized for millions of entries.
 *
 * Why not a `Map` of lower-cased keys: with a million users a `Map` costs 250-550 ms per million
 * inserts here, every lookup needs a `toLowerCase()` copy, and composite keys need a concatenation.
 * This table hashes the case-folded characters in place, stores slots in typed arrays (one
 * allocation, nothing for the garbage collector to trace), and takes a small integer `salt` (0..255) so a
 * (kind, name) pair needs no concatenated key. It keeps the folded characters of ASCII keys in a
 * byte arena rather than the key strings: a million user names then die young instead of being
 * copied through the young generation into the old one.
 */

const EMPTY = 0;

function seed(salt: number): number {
  return (0x811c9dc5 ^ Math.imul(salt + 1, 0x9e3779b1)) | 0;
}

function hashOf(s: string, salt: number): number {
  let h = seed(salt);
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 128) return hashLowered(s.toLowerCase(), salt); // non-ASCII: Unicode case folding
    if (c >= 65 && c <= 90) c |= 32;
    h = Math.imul(h ^ c, 16777619);
  }
  return h;
}

/** The same hash over a string already lower-cased by `toLowerCase` (ASCII letters stay as they are). */
function hashLowered(s: string, salt: number): number {
  let h = seed(salt);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h;
}

/** Whether `a` and `b` are equal ignoring case (Unicode-aware, ASCII fast path). */
export function sameName(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return a.toLowerCase() === b.toLowerCase();
  for (let i = 0; i < a.length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 128 || y >= 128) return a.toLowerCase() === b.toLowerCase();
    if (x >= 65 && x <= 90) x |= 32;
    if (y >= 65 && y <= 90) y |= 32;
    if (x !== y) return false;
  }
  return true;
}

/** Up to this many entries a table is a plain list: most tables (sub-resources, roles) stay this small. */
const SMALL = 8;
/**
 * Up to this many entries, lookups first try a `Map` of the exact strings seen (salt 0): references
 * to groups and roles mostly repeat a name as written, and V8 hashes a string once and keeps it.
 */
const EXACT_LIMIT = 1 << 16;

/** Whether `s` has a character outside ASCII (its folding is then `toLowerCase`). */
function isWide(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 128) return true;
  return false;
}

/** Shared zero-length arrays: a table allocates nothing until its first entry (builders make one per resource). */
const NO_BYTES = new Uint8Array(0);
const NO_INTS = new Int32Array(0);

export class NameTable<V = number> {
  private count = 0;
  /** Folded ASCII keys, back to back; entry i ends at `ends[i]` and starts where i - 1 ends. */
  private arena = NO_BYTES;
  private ends = NO_INTS;
  /** Folded keys (`toLowerCase`) that are not ASCII, by entry. */
  private wide: Map<number, string> | undefined;
  private salts = NO_BYTES;
  private values: V[] = [];
  /**
   * Open addressing, allocated once the table outgrows SMALL: pairs of (hash, entry index + 1 or
   * EMPTY), so a probe reads one cache line and touches a key only when the hashes match.
   */
  private slots: Int32Array | undefined;
  private mask = 0;
  /** Exact spelling -> entry index, for salt 0, while the table is at most EXACT_LIMIT entries. */
  private exact: Map<string, number> | undefined;

  get size(): number {
    return this.count;
  }

  /** The index of the entry equal to `key` (ignoring case) with this `salt`, or -1. */
  find(key: string, salt = 0): number {
    const slots = this.slots;
    if (slots === undefined) {
      for (let i = 0; i < this.count; i++) if (this.salts[i] === salt && this.equals(i, key)) return i;
      return -1;
    }
    const exact = salt === 0 ? this.exact : undefined;
    if (exact !== undefined) {
      const hit = exact.get(key);
      if (hit !== undefined) return hit;
    }
    const h = hashOf(key, salt);
    const mask = this.mask;
    let slot = h & mask;
    for (;;) {
      const entry = slots[2 * slot + 1]!;
      if (entry === EMPTY) return -1;
      if (slots[2 * slot] === h) {
        const i = entry - 1;
        if (this.salts[i] === salt && this.equals(i, key)) {
          // Another spelling of a key: remembered too, within bounds.
          if (exact !== undefined && exact.size < 2 * EXACT_LIMIT) exact.set(key, i);
          return i;
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Adds `key` with `value` unless an equal key exists; returns the existing entry's index, or -1 when added. */
  insert(key: string, value: V, salt = 0): number {
    const slots = this.slots;
    if (slots === undefined) {
      const existing = this.find(key, salt);
      if (existing !== -1) return existing;
      this.push(key, value, salt);
      if (this.count > SMALL) this.rehash(SMALL * 8);
      return -1;
    }
    // One pass over the key: fold its characters into the arena past the last entry while hashing
    // them, and compare candidates byte for byte. The bytes count only if the key is new.
    const start = this.count === 0 ? 0 : this.ends[this.count - 1]!;
    const n = key.length;
    if (start + n > this.arena.length) this.growArena(start + n);
    const arena = this.arena;
    let h = seed(salt);
    for (let j = 0; j < n; j++) {
      let c = key.charCodeAt(j);
      if (c >= 128) return this.insertWide(key, value, salt);
      if (c >= 65 && c <= 90) c |= 32;
      arena[start + j] = c;
      h = Math.imul(h ^ c, 16777619);
    }
    const mask = this.mask;
    let slot = h & mask;
    for (;;) {
      const entry = slots[2 * slot + 1]!;
      if (entry === EMPTY) break;
      if (slots[2 * slot] === h) {
        const i = entry - 1;
        if (this.salts[i] === salt && this.sameAsPending(i, start, n)) return i;
      }
      slot = (slot + 1) & mask;
    }
    const index = this.reserve(value, salt);
    this.ends[index] = start + n;
    this.place(slot, h, index, key, salt);
    return -1;
  }

  /** `insert` of a key with non-ASCII characters (folded with `toLowerCase`). */
  private insertWide(key: string, value: V, salt: number): number {
    const existing = this.find(key, salt);
    if (existing !== -1) return existing;
    const h = hashOf(key, salt);
    let slot = h & this.mask;
    while (this.slots![2 * slot + 1] !== EMPTY) slot = (slot + 1) & this.mask;
    const index = this.push(key, value, salt);
    this.place(slot, h, index, key, salt);
    return -1;
  }

  /** Whether entry `i` has the folded bytes written at `start` (length `n`) by `insert`. */
  private sameAsPending(i: number, start: number, n: number): boolean {
    if (this.wide?.has(i) === true) return false;
    const from = i === 0 ? 0 : this.ends[i - 1]!;
    if (this.ends[i]! - from !== n) return false;
    const arena = this.arena;
    for (let j = 0; j < n; j++) if (arena[from + j] !== arena[start + j]) return false;
    return true;
  }

  /** Records a new entry at `slot` and grows the slots when half full. */
  private place(slot: number, h: number, index: number, key: string, salt: number): void {
    const slots = this.slots!;
    slots[2 * slot] = h;
    slots[2 * slot + 1] = index + 1;
    if (this.exact !== undefined) {
      if (index >= EXACT_LIMIT) this.exact = undefined;
      else if (salt === 0) this.exact.set(key, index);
    }
    if ((index + 1) * 2 > this.mask) this.rehash((this.mask + 1) * 2);
  }

  /** Whether the entry at `index` is `key` (ignoring case) with this `salt`. */
  holds(index: number, key: string, salt = 0): boolean {
    return this.salts[index] === salt && this.equals(index, key);
  }

  /** The value of the entry at `index` (from `find` or `insert`). */
  valueAt(index: number): V {
    return this.values[index]!;
  }

  /** Drops every entry, releasing the memory. */
  clear(): void {
    this.count = 0;
    this.arena = NO_BYTES;
    this.ends = NO_INTS;
    this.wide = undefined;
    this.salts = NO_BYTES;
    this.values = [];
    this.slots = undefined;
    this.mask = 0;
    this.exact = undefined;
  }

  /** Whether entry `i` holds `key`, ignoring case. */
  private equals(i: number, key: string): boolean {
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    const length = this.ends[i]! - start;
    if (this.wide !== undefined) {
      const wide = this.wide.get(i);
      if (wide !== undefined) return isWide(key) && key.toLowerCase() === wide;
    }
    if (key.length !== length) return isWide(key) && this.equalsFolded(start, length, key.toLowerCase());
    const arena = this.arena;
    for (let j = 0; j < length; j++) {
      let c = key.charCodeAt(j);
      // Up to the first non-ASCII character, folding is per character and positions agree.
      if (c >= 128) return this.equalsFolded(start, length, key.toLowerCase());
      if (c >= 65 && c <= 90) c |= 32;
      if (arena[start + j] !== c) return false;
    }
    return true;
  }

  /** Whether the arena bytes at `start` spell `folded` (already lower-cased). */
  private equalsFolded(start: number, length: number, folded: string): boolean {
    if (folded.length !== length) return false;
    for (let j = 0; j < length; j++) if (this.arena[start + j] !== folded.charCodeAt(j)) return false;
    return true;
  }

  /** Adds entry `count` with its salt and value; its key bytes are the caller's to write. */
  private reserve(value: V, salt: number): number {
    const index = this.count++;
    if (index >= this.salts.length) {
      const capacity = Math.max(4, this.salts.length * 2);
      const salts = new Uint8Array(capacity);
      salts.set(this.salts);
      this.salts = salts;
      const ends = new Int32Array(capacity);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.salts[index] = salt;
    this.values.push(value);
    return index;
  }

  private growArena(needed: number): void {
    const arena = new Uint8Array(Math.max(64, this.arena.length * 2, needed));
    arena.set(this.arena);
    this.arena = arena;
  }

  /** Adds an entry for `key`, folding it into the arena (or `wide`). */
  private push(key: string, value: V, salt: number): number {
    let start = this.count === 0 ? 0 : this.ends[this.count - 1]!;
    const index = this.reserve(value, salt);
    const folded = isWide(key) ? key.toLowerCase() : key;
    if (isWide(folded)) {
      (this.wide ??= new Map()).set(index, folded);
      this.ends[index] = start;
      return index;
    }
    if (start + folded.length > this.arena.length) this.growArena(start + folded.length);
    const arena = this.arena;
    for (let j = 0; j < folded.length; j++) {
      let c = folded.charCodeAt(j);
      if (c >= 65 && c <= 90) c |= 32;
      arena[start++] = c;
    }
    this.ends[index] = start;
    return index;
  }

  /** (Re)builds the slots with room for `size` entries; from the list on the first call. */
  private rehash(size: number): void {
    const old = this.slots;
    const slots = new Int32Array(size * 2);
    const mask = size - 1;
    if (old === undefined) this.exact = new Map();
    const n = old === undefined ? this.count : old.length >> 1;
    for (let k = 0; k < n; k++) {
      let h: number;
      let entry: number;
      if (old === undefined) {
        h = this.hashAt(k);
        entry = k + 1;
      } else {
        entry = old[2 * k + 1]!;
        if (entry === EMPTY) continue;
        h = old[2 * k]!;
      }
      let slot = h & mask;
      while (slots[2 * slot + 1] !== EMPTY) slot = (slot + 1) & mask;
      slots[2 * slot] = h;
      slots[2 * slot + 1] = entry;
    }
    this.slots = slots;
    this.mask = mask;
  }

  /** The hash of entry i, from its folded key. */
  private hashAt(i: number): number {
    const wide = this.wide?.get(i);
    if (wide !== undefined) return hashLowered(wide, this.salts[i]!);
    let h = seed(this.salts[i]!);
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    for (let j = start; j < this.ends[i]!; j++) h = Math.imul(h ^ this.arena[j]!, 16777619);
    return h;
  }
}
