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
  /**
   * Open addressing, allocated once the table outgrows SMALL: pairs of (hash, entry index + 1 or
   * EMPTY), so a probe reads one cache line and touches a key only when the hashes match.
   */
  private slots: Int32Array | undefined;
  private mask = 0;

  get size(): number {
    return this.keys.length;
  }

  /** The index of the entry equal to `key` (ignoring case) with this `salt`, or -1. */
  find(key: string, salt = 0): number {
    const slots = this.slots;
    if (slots === undefined) {
      const keys = this.keys;
      for (let i = 0; i < keys.length; i++) if (this.salts[i] === salt && sameName(keys[i]!, key)) return i;
      return -1;
    }
    const h = hashOf(key, salt);
    const mask = this.mask;
    let slot = h & mask;
    for (;;) {
      const entry = slots[2 * slot + 1]!;
      if (entry === EMPTY) return -1;
      if (slots[2 * slot] === h) {
        const i = entry - 1;
        if (this.salts[i] === salt && sameName(this.keys[i]!, key)) return i;
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
      if (this.keys.length > SMALL) this.rehash(SMALL * 8);
      return -1;
    }
    const h = hashOf(key, salt);
    const mask = this.mask;
    let slot = h & mask;
    for (;;) {
      const entry = slots[2 * slot + 1]!;
      if (entry === EMPTY) break;
      if (slots[2 * slot] === h) {
        const i = entry - 1;
        if (this.salts[i] === salt && sameName(this.keys[i]!, key)) return i;
      }
      slot = (slot + 1) & mask;
    }
    const index = this.push(key, value, salt);
    slots[2 * slot] = h;
    slots[2 * slot + 1] = index + 1;
    if ((index + 1) * 2 > mask) this.rehash((mask + 1) * 2);
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

  /** (Re)builds the slots with room for `size` entries; from the list on the first call. */
  private rehash(size: number): void {
    const old = this.slots;
    const slots = new Int32Array(size * 2);
    const mask = size - 1;
    const place = (h: number, entry: number) => {
      let slot = h & mask;
      while (slots[2 * slot + 1] !== EMPTY) slot = (slot + 1) & mask;
      slots[2 * slot] = h;
      slots[2 * slot + 1] = entry;
    };
    if (old === undefined) {
      for (let i = 0; i < this.keys.length; i++) place(hashOf(this.keys[i]!, this.salts[i]!), i + 1);
    } else {
      for (let s = 0; s < old.length; s += 2) if (old[s + 1] !== EMPTY) place(old[s]!, old[s + 1]!);
    }
    this.slots = slots;
    this.mask = mask;
  }
}
