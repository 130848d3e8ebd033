/**
 * An order-independent hash of a multiset of 128-bit entity hashes: their sum modulo 2^128, plus
 * their count. Adding is O(1) in memory, so a collection of millions of entities is hashed without
 * holding or sorting its entity hashes. Collisions can be constructed on purpose; this digest
 * detects changes, it does not authenticate data.
 */

import { hex32 } from './hash128.js';

const LANES = 4;

/** Accumulates entity hashes in any order. */
export class MultisetHash {
  private readonly sum = new Uint32Array(LANES);
  private size = 0;

  /** Adds one 128-bit hash given as four 32-bit words, most significant first (`hash128`). */
  add(words: Uint32Array): void {
    let carry = 0;
    for (let lane = LANES - 1; lane >= 0; lane--) {
      const total = (this.sum[lane] ?? 0) + (words[lane] ?? 0) + carry;
      this.sum[lane] = total >>> 0;
      carry = total > 0xffffffff ? 1 : 0;
    }
    this.size++;
  }

  /** Number of hashes added. */
  get count(): number {
    return this.size;
  }

  /**
   * Writes the count (four 16-bit units, low first) and the sum (eight units, most significant
   * lane first) into `units` at `at`; returns the position after them.
   */
  writeUnits(units: Uint16Array, at: number): number {
    let n = this.size;
    for (let i = 0; i < 4; i++) {
      units[at++] = n % 0x10000;
      n = Math.floor(n / 0x10000);
    }
    for (let lane = 0; lane < LANES; lane++) {
      const w = this.sum[lane] ?? 0;
      units[at++] = w >>> 16;
      units[at++] = w & 0xffff;
    }
    return at;
  }

  /** `count:sum` in hex, to feed into an enclosing hash. */
  toString(): string {
    let hex = '';
    for (const lane of this.sum) hex += hex32(lane);
    return `${this.size}:${hex}`;
  }
}
