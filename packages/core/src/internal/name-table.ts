/**
 * A hash table of names compared without regard to case, sized for millions of entries.
 *
 * Why not a `Map` of lower-cased keys: with a million users a `Map` costs 250-550 ms per million
 * inserts here, every lookup needs a `toLowerCase()` copy, and composite keys need a concatenation.
 * This table hashes the case-folded characters in place, stores slots in typed arrays (one
 * allocation, nothing for the garbage collector to trace), and takes a small integer `salt` (0..255) so a
 * (kind, name) pair needs no concatenated key.
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

export class NameTable<V = number> {
  private keys: string[] = [];
  private salts = new Uint8Array(SMALL + 1);
  private values: V[] = [];
  // Allocated once the table outgrows SMALL.
  private hashes: Int32Array | undefined;
  private slots: Int32Array | undefined; // entry index + 1, or EMPTY
  private mask = 0;

  get size(): number {
    return this.keys.length;
  }

  /** The index of the entry equal to `key` (ignoring case) with this `salt`, or -1. */
  find(key: string, salt = 0): number {
    const slots = this.slots;
    if (slots === undefined) {
      for (let i = 0; i < this.keys.length; i++)
        if (this.salts[i] === salt && sameName(this.keys[i]!, key)) return i;
      return -1;
    }
    const h = hashOf(key, salt);
    let slot = h & this.mask;
    for (;;) {
      const entry = slots[slot]!;
      if (entry === EMPTY) return -1;
      const i = entry - 1;
      if (this.hashes![i] === h && this.salts[i] === salt && sameName(this.keys[i]!, key)) return i;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Adds `key` with `value` unless an equal key exists; returns the existing entry's index, or -1 when added. */
  insert(key: string, value: V, salt = 0): number {
    if (this.slots === undefined) {
      const existing = this.find(key, salt);
      if (existing !== -1) return existing;
      this.push(key, value, salt);
      if (this.keys.length > SMALL) this.index();
      return -1;
    }
    const h = hashOf(key, salt);
    const slots = this.slots;
    let slot = h & this.mask;
    for (;;) {
      const entry = slots[slot]!;
      if (entry === EMPTY) break;
      const i = entry - 1;
      if (this.hashes![i] === h && this.salts[i] === salt && sameName(this.keys[i]!, key)) return i;
      slot = (slot + 1) & this.mask;
    }
    const index = this.push(key, value, salt);
    if (index >= this.hashes!.length) {
      const grown = new Int32Array(this.hashes!.length * 2);
      grown.set(this.hashes!);
      this.hashes = grown;
    }
    this.hashes![index] = h;
    slots[slot] = index + 1;
    if ((index + 1) * 2 > this.mask) this.rehash(slots.length * 2);
    return -1;
  }

  /** The value of the entry at `index` (from `find` or `insert`). */
  valueAt(index: number): V {
    return this.values[index]!;
  }

  keyAt(index: number): string {
    return this.keys[index]!;
  }

  /** Drops every entry, releasing the memory. */
  clear(): void {
    this.keys = [];
    this.salts = new Uint8Array(SMALL + 1);
    this.values = [];
    this.hashes = undefined;
    this.slots = undefined;
    this.mask = 0;
  }

  private push(key: string, value: V, salt: number): number {
    const index = this.keys.length;
    this.keys.push(key);
    this.values.push(value);
    if (index >= this.salts.length) {
      const grown = new Uint8Array(this.salts.length * 2);
      grown.set(this.salts);
      this.salts = grown;
    }
    this.salts[index] = salt;
    return index;
  }

  /** Switches from a list to hashing. */
  private index(): void {
    this.hashes = new Int32Array(SMALL * 4);
    for (let i = 0; i < this.keys.length; i++) this.hashes[i] = hashOf(this.keys[i]!, this.salts[i]!);
    this.rehash(SMALL * 8);
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let i = 0; i < this.keys.length; i++) {
      let slot = this.hashes![i]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
