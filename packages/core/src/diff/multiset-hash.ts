/**
 * An order-independent hash of a multiset of SHA-256 digests: their sum modulo 2^256, plus their
 * count. Adding is O(1) in memory, so a collection of millions of entities is hashed without
 * holding or sorting its entity digests. Collisions can be constructed on purpose; this digest
 * detects changes, it does not authenticate data.
 */

const LANES = 8;

/** Accumulates entity digests in any order. */
export class MultisetHash {
  private readonly sum = new Uint32Array(LANES);
  private size = 0;

  /** Adds one 32-byte digest. */
  add(digest: Uint8Array): void {
    let carry = 0;
    for (let lane = LANES - 1; lane >= 0; lane--) {
      const i = lane * 4;
      // Big-endian, as DataView.getUint32 reads it; no view object per digest.
      const word =
        ((digest[i]! << 24) | (digest[i + 1]! << 16) | (digest[i + 2]! << 8) | digest[i + 3]!) >>> 0;
      const total = (this.sum[lane] ?? 0) + word + carry;
      this.sum[lane] = total >>> 0;
      carry = total > 0xffffffff ? 1 : 0;
    }
    this.size++;
  }

  /** Number of digests added. */
  get count(): number {
    return this.size;
  }

  /** `count:sum` in hex, to feed into an enclosing hash. */
  toString(): string {
    let hex = '';
    for (const lane of this.sum) hex += lane.toString(16).padStart(8, '0');
    return `${this.size}:${hex}`;
  }
}
