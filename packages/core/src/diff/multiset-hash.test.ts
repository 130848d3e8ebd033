import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MultisetHash } from './multiset-hash.js';

/** The sum modulo 2^128 and the count, as `toString` spells them, computed with BigInt. */
function expected(hashes: Uint32Array[]): string {
  let sum = 0n;
  for (const w of hashes)
    sum += (BigInt(w[0]!) << 96n) | (BigInt(w[1]!) << 64n) | (BigInt(w[2]!) << 32n) | BigInt(w[3]!);
  sum %= 1n << 128n;
  return `${hashes.length}:${sum.toString(16).padStart(32, '0')}`;
}

const word = fc.integer({ min: 0, max: 0xffffffff });
const hash = fc.tuple(word, word, word, word).map((w) => Uint32Array.from(w));

describe('MultisetHash', () => {
  it('is the sum modulo 2^128 of what was added, in any order', () => {
    fc.assert(
      fc.property(fc.array(hash, { maxLength: 40 }), (hashes) => {
        const forward = new MultisetHash();
        const backward = new MultisetHash();
        for (const h of hashes) forward.add(h);
        for (const h of [...hashes].reverse()) backward.add(h);
        expect(forward.toString()).toBe(expected(hashes));
        expect(backward.toString()).toBe(forward.toString());
      }),
    );
  });

  it('stays exact past the adds after which it carries, with every word at its largest', () => {
    const top = Uint32Array.from([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);
    const set = new MultisetHash();
    const n = (1 << 20) * 3 + 5;
    for (let i = 0; i < n; i++) set.add(top);
    // n * (2^128 - 1) mod 2^128 = 2^128 - n
    const sum = ((1n << 128n) - BigInt(n)).toString(16);
    expect(set.toString()).toBe(`${n}:${sum}`);
    expect(set.count).toBe(n);
  });

  it('writes the count and the sum into code units', () => {
    const set = new MultisetHash();
    set.add(Uint32Array.from([1, 2, 3, 0x89abcdef]));
    const units = new Uint16Array(14);
    expect(set.writeUnits(units, 2)).toBe(14);
    expect([...units]).toEqual([0, 0, 1, 0, 0, 0, 0, 1, 0, 2, 0, 3, 0x89ab, 0xcdef]);
  });
});
