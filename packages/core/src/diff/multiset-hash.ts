/**
 * An order-independent hash of a multiset of 128-bit entity hashes: their sum modulo 2^128, plus
 * their count. Adding is O(1) in memory, so a collection of millions of entities is hashed without
 * holding or sorting its entity hashes. Collisions can be constructed on purpose; this digest
 * detects changes, it does not authenticate data.
 */

import { hex32 } from './hash128.js';

/** Words added to a lane before its carries are passed on: 2^20 words of 32 bits stay exact in a double. */
const ADDS_BEFORE_CARRY = 1 << 20;
const WORD = 0x100000000;

/** Accumulates entity hashes in any order. */
export class MultisetHash {
  /**
   * The sum, four lanes of 32 bits, most significant first; each lane may hold more than 32 bits
   * (the words added since the last `carry()`), passed on to the lane above by `carry()`.
   */
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;
  private size = 0;
  private pending = 0;

  /** Adds one 128-bit hash given as four 32-bit words, most significant first (`HASH_WORDS`). */
  add(words: Uint32Array): void {
    this.s0 += words[0]!;
    this.s1 += words[1]!;
    this.s2 += words[2]!;
    this.s3 += words[3]!;
    this.size++;
    if (++this.pending === ADDS_BEFORE_CARRY) this.carry();
  }

  /** Passes each lane's bits above 32 on to the lane above; the top lane's are dropped (mod 2^128). */
  private carry(): void {
    let c = Math.floor(this.s3 / WORD);
    this.s3 -= c * WORD;
    this.s2 += c;
    c = Math.floor(this.s2 / WORD);
    this.s2 -= c * WORD;
    this.s1 += c;
    c = Math.floor(this.s1 / WORD);
    this.s1 -= c * WORD;
    this.s0 += c;
    this.s0 %= WORD;
    this.pending = 0;
  }

  /** The four lanes of the sum modulo 2^128, most significant first. */
  private lanes(): number[] {
    this.carry();
    return [this.s0, this.s1, this.s2, this.s3];
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
    for (const w of this.lanes()) {
      units[at++] = w >>> 16;
      units[at++] = w & 0xffff;
    }
    return at;
  }

  /** `count:sum` in hex, to feed into an enclosing hash. */
  toString(): string {
    let hex = '';
    for (const lane of this.lanes()) hex += hex32(lane);
    return `${this.size}:${hex}`;
  }
}
