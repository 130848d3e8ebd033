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
    const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
    let carry = 0;
    for (let lane = LANES - 1; lane >= 0; lane--) {
      const total = (this.sum[lane] ?? 0) + view.getUint32(lane * 4) + carry;
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
