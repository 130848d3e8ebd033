import { describe, expect, it } from 'vitest';
import { hashUnits, hex32 } from './hash128.js';

/** MurmurHash3_x86_128 of `text` (its UTF-16 code units). */
function hash128(text: string): Uint32Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return hashUnits(units, units.length);
}

const hex = (text: string): string => [...hash128(text)].map((w) => w.toString(16).padStart(8, '0')).join('');

describe('hashUnits (MurmurHash3_x86_128 of UTF-16 code units)', () => {
  it('is MurmurHash3_x86_128 with seed 0: the empty string hashes to zero', () => {
    expect(hex('')).toBe('0'.repeat(32));
  });

  it('gives the same hash for the same text, whatever its length', () => {
    for (let n = 0; n < 40; n++) {
      const text = 'x'.repeat(n);
      expect(hex(text)).toBe(hex('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'.slice(0, n)));
    }
  });

  it('tells apart texts that differ in one code unit anywhere, in length, or beyond Latin-1', () => {
    const seen = new Set<string>();
    const base = '{"name":"ann","email":"ann@example.com"}';
    for (let i = 0; i <= base.length; i++) {
      seen.add(hex(base.slice(0, i)));
      if (i < base.length) seen.add(hex(`${base.slice(0, i)}#${base.slice(i + 1)}`));
    }
    seen.add(hex('{"name":"ännö"}'));
    seen.add(hex('{"name":"a\u{1F600}"}'));
    // A trailing zero code unit is not the same as none (the length is hashed).
    seen.add(hex('abc'));
    seen.add(hex('abc\u0000'));
    expect(seen.size).toBe(2 * base.length + 1 + 4);
  });

  it('spreads one changed bit over every word', () => {
    const a = [...hash128('{"id":"1"}')];
    const b = [...hash128('{"id":"0"}')];
    for (let w = 0; w < 4; w++) expect(a[w]).not.toBe(b[w]);
  });

  it('gives the first 64 bits as 16 hex digits', () => {
    const words = hash128('{"id":"1"}');
    const hex64 = hex32(words[0]!) + hex32(words[1]!);
    expect(hex64).toBe(hex('{"id":"1"}').slice(0, 16));
    expect(hex64).toMatch(/^[0-9a-f]{16}$/);
  });
});
