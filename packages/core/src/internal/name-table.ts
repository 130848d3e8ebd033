/**
 * A hash table of names compared without regard to case, sized for millions of entries.
 *
 * Why not a `Map` of lower-cased keys: with a million users a `Map` costs 250-550 ms per million
 * inserts here, every lookup needs a `toLowerCase()` copy, and composite keys need a concatenation.
 * This table hashes the case-folded characters in place, stores slots in typed arrays (one
 * allocation, nothing for the garbage collector to trace), and takes a small integer `salt` (0..255) so a
 * (kind, name) pair needs no concatenated key. It keeps the characters of ASCII keys in a byte
 * arena rather than the key strings: a million user names then die young instead of being copied
 * through the young generation into the old one.
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

const fold = (c: number): number => (c >= 65 && c <= 90 ? c | 32 : c);

/** Shared zero-length arrays: a table allocates nothing until its first entry (builders make one per resource). */
const NO_BYTES = new Uint8Array(0);
const NO_INTS = new Int32Array(0);

export class NameTable<V = number> {
  private count = 0;
  /** ASCII keys as written, back to back; entry i ends at `ends[i]` and starts where i - 1 ends. */
  private arena = NO_BYTES;
  private ends = NO_INTS;
  /** Keys with non-ASCII characters, as written, by entry (they take no arena bytes). */
  private wide: Map<number, string> | undefined;
  private salts = NO_BYTES;
  private values: V[] = [];
  /** The values, when they are entity positions (see `ofPositions`): no array of a million numbers. */
  private positions: Int32Array | undefined;

  /**
   * A table whose values are positions (non-negative integers below 2^31), kept in a typed array:
   * an index of a million entities then holds no array of numbers.
   */
  static ofPositions(): NameTable<number> {
    const table = new NameTable<number>();
    table.positions = NO_INTS;
    return table;
  }
  /**
   * Open addressing, allocated once the table outgrows SMALL: pairs of (hash, entry index + 1 or
   * EMPTY), so a probe reads one cache line and touches a key only when the hashes match.
   */
  private slots: Int32Array | undefined;
  private mask = 0;
  /** Exact spelling -> entry index, for salt 0, while the table is at most EXACT_LIMIT entries. */
  private exact: Map<string, number> | undefined;
  /** Entries from here on were appended unchecked and wait for `indexPending`; their hashes follow. */
  private pendingFrom = 0;
  private pendingHashes = NO_INTS;
  /** Appended entries found to repeat an earlier key: never found, never held. */
  private dead: Set<number> | undefined;

  get size(): number {
    return this.count;
  }

  /** The index of the entry equal to `key` (ignoring case) with this `salt`, or -1. */
  find(key: string, salt = 0): number {
    if (this.pendingFrom !== this.count) throw new Error('NameTable: indexPending() must follow append()');
    const slots = this.slots;
    if (slots === undefined) {
      for (let i = 0; i < this.count; i++)
        if (this.salts[i] === salt && this.equals(i, key) && this.dead?.has(i) !== true) return i;
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

  /** Whether the entry at `index` is `key` (ignoring case) with this `salt`. */
  holds(index: number, key: string, salt = 0): boolean {
    return this.salts[index] === salt && this.dead?.has(index) !== true && this.equals(index, key);
  }

  /** Adds `key` with `value` unless an equal key exists; returns the existing entry's index, or -1 when added. */
  insert(key: string, value: V, salt = 0): number {
    const existing = this.find(key, salt);
    if (existing !== -1) return existing;
    const index = this.append(key, value, salt);
    this.pendingFrom = this.count;
    if (this.slots !== undefined) this.place(this.pendingHashes[0]!, index, key, salt);
    else if (this.count > SMALL) this.rehash(SMALL * 8);
    return -1;
  }

  /**
   * Adds `key` without looking for an equal one, for many keys at a time: no lookup may come
   * before `indexPending`, which finds the repeated keys among them all at once. A million inserts
   * each waiting on a random memory access cost several times one pass that places them all.
   */
  append(key: string, value: V, salt = 0): number {
    const index = this.count++;
    if (index >= this.salts.length) {
      const capacity = Math.max(4, this.salts.length * 2);
      const salts = new Uint8Array(capacity);
      salts.set(this.salts);
      this.salts = salts;
      const ends = new Int32Array(capacity);
      ends.set(this.ends);
      this.ends = ends;
      if (this.positions !== undefined) {
        const positions = new Int32Array(capacity);
        positions.set(this.positions);
        this.positions = positions;
      }
    }
    this.salts[index] = salt;
    if (this.positions !== undefined) this.positions[index] = value as number;
    else this.values.push(value);
    const pending = index - this.pendingFrom;
    if (pending >= this.pendingHashes.length) {
      const hashes = new Int32Array(Math.max(4, this.pendingHashes.length * 2));
      hashes.set(this.pendingHashes);
      this.pendingHashes = hashes;
    }
    // One pass over the key: copy it into the arena while hashing its folded characters.
    const start = index === 0 ? 0 : this.ends[index - 1]!;
    const n = key.length;
    if (start + n > this.arena.length) {
      const arena = new Uint8Array(Math.max(64, this.arena.length * 2, start + n));
      arena.set(this.arena);
      this.arena = arena;
    }
    const arena = this.arena;
    let h = seed(salt);
    for (let j = 0; j < n; j++) {
      const c = key.charCodeAt(j);
      if (c >= 128) {
        (this.wide ??= new Map()).set(index, key);
        this.ends[index] = start;
        this.pendingHashes[pending] = hashLowered(key.toLowerCase(), salt);
        return index;
      }
      arena[start + j] = c;
      h = Math.imul(h ^ fold(c), 16777619);
    }
    this.ends[index] = start + n;
    this.pendingHashes[pending] = h;
    return index;
  }

  /**
   * Indexes the entries appended since the last call, in order. Each whose key equals an earlier
   * entry's (with the same salt) is left out of the index, and `duplicate(entry, earlier)` is called.
   */
  indexPending(duplicate: (entry: number, earlier: number) => void): void {
    const from = this.pendingFrom;
    const count = this.count;
    this.pendingFrom = count;
    if (this.slots === undefined) {
      if (count <= SMALL) {
        for (let k = from; k < count; k++)
          for (let j = 0; j < k; j++)
            if (this.salts[j] === this.salts[k] && this.dead?.has(j) !== true && this.sameEntries(j, k)) {
              (this.dead ??= new Set()).add(k);
              duplicate(k, j);
              break;
            }
        return;
      }
      this.rehash(SMALL * 8, from);
    }
    let size = this.mask + 1;
    while (count * 2 > size) size *= 2;
    if (size !== this.mask + 1) this.rehash(size);
    const slots = this.slots!;
    const mask = this.mask;
    const hashes = this.pendingHashes;
    for (let k = from; k < count; k++) {
      const h = hashes[k - from]!;
      let slot = h & mask;
      let earlier = -1;
      for (;;) {
        const entry = slots[2 * slot + 1]!;
        if (entry === EMPTY) break;
        if (
          slots[2 * slot] === h &&
          this.salts[entry - 1] === this.salts[k] &&
          this.sameEntries(entry - 1, k)
        ) {
          earlier = entry - 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (earlier !== -1) {
        (this.dead ??= new Set()).add(k);
        duplicate(k, earlier);
        continue;
      }
      slots[2 * slot] = h;
      slots[2 * slot + 1] = k + 1;
    }
    if (this.exact !== undefined && count > EXACT_LIMIT) this.exact = undefined;
  }

  /** The value of the entry at `index` (from `find` or `insert`). */
  valueAt(index: number): V {
    return this.positions !== undefined ? (this.positions[index] as V) : this.values[index]!;
  }

  /** The key of the entry at `index`, as it was written. */
  keyAt(index: number): string {
    const wide = this.wide?.get(index);
    if (wide !== undefined) return wide;
    const start = index === 0 ? 0 : this.ends[index - 1]!;
    let out = '';
    for (let j = start; j < this.ends[index]!; j++) out += String.fromCharCode(this.arena[j]!);
    return out;
  }

  /** Drops every entry, releasing the memory. */
  clear(): void {
    this.count = 0;
    this.arena = NO_BYTES;
    this.ends = NO_INTS;
    this.wide = undefined;
    this.salts = NO_BYTES;
    this.values = [];
    if (this.positions !== undefined) this.positions = NO_INTS;
    this.slots = undefined;
    this.mask = 0;
    this.exact = undefined;
    this.pendingFrom = 0;
    this.pendingHashes = NO_INTS;
    this.dead = undefined;
  }

  /** Records the new entry `index` in the slots, growing them when half full. */
  private place(h: number, index: number, key: string, salt: number): void {
    const slots = this.slots!;
    const mask = this.mask;
    let slot = h & mask;
    while (slots[2 * slot + 1] !== EMPTY) slot = (slot + 1) & mask;
    slots[2 * slot] = h;
    slots[2 * slot + 1] = index + 1;
    if (this.exact !== undefined) {
      if (index >= EXACT_LIMIT) this.exact = undefined;
      else if (salt === 0) this.exact.set(key, index);
    }
    if ((index + 1) * 2 > mask) this.rehash((mask + 1) * 2);
  }

  /** Whether entry `i` holds `key`, ignoring case. */
  private equals(i: number, key: string): boolean {
    if (this.wide !== undefined) {
      const wide = this.wide.get(i);
      if (wide !== undefined) return wide === key || wide.toLowerCase() === key.toLowerCase();
    }
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    const length = this.ends[i]! - start;
    if (key.length !== length) return isWide(key) && this.spells(start, length, key.toLowerCase());
    const arena = this.arena;
    for (let j = 0; j < length; j++) {
      const c = key.charCodeAt(j);
      // Up to the first non-ASCII character, folding is per character and positions agree.
      if (c >= 128) return this.spells(start, length, key.toLowerCase());
      if (fold(arena[start + j]!) !== fold(c)) return false;
    }
    return true;
  }

  /** Whether the arena bytes at `start`, folded, spell `folded` (already lower-cased). */
  private spells(start: number, length: number, folded: string): boolean {
    if (folded.length !== length) return false;
    for (let j = 0; j < length; j++) if (fold(this.arena[start + j]!) !== folded.charCodeAt(j)) return false;
    return true;
  }

  /** Whether entries `a` and `b` have equal keys, ignoring case. */
  private sameEntries(a: number, b: number): boolean {
    if (this.wide !== undefined && (this.wide.has(a) || this.wide.has(b)))
      return this.equals(a, this.keyAt(b));
    const from = a === 0 ? 0 : this.ends[a - 1]!;
    const start = b === 0 ? 0 : this.ends[b - 1]!;
    const n = this.ends[b]! - start;
    if (this.ends[a]! - from !== n) return false;
    const arena = this.arena;
    for (let j = 0; j < n; j++) if (fold(arena[from + j]!) !== fold(arena[start + j]!)) return false;
    return true;
  }

  /**
   * (Re)builds the slots with room for `size` entries: from the old slots, or on the first call
   * from the entries before `upTo` (entries from there on are pending).
   */
  private rehash(size: number, upTo = this.count): void {
    const old = this.slots;
    const slots = new Int32Array(size * 2);
    const mask = size - 1;
    if (old === undefined) this.exact = upTo <= EXACT_LIMIT ? new Map() : undefined;
    const n = old === undefined ? upTo : old.length >> 1;
    for (let k = 0; k < n; k++) {
      let h: number;
      let entry: number;
      if (old === undefined) {
        if (this.dead?.has(k) === true) continue;
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

  /** The hash of entry i, from its key. */
  private hashAt(i: number): number {
    const wide = this.wide?.get(i);
    if (wide !== undefined) return hashLowered(wide.toLowerCase(), this.salts[i]!);
    let h = seed(this.salts[i]!);
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    for (let j = start; j < this.ends[i]!; j++) h = Math.imul(h ^ fold(this.arena[j]!), 16777619);
    return h;
  }
}
