import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameTable, sameName } from './name-table.js';

describe('NameTable', () => {
  it('finds names whatever their case, and keeps the first of equal names', () => {
    const t = new NameTable<string>();
    expect(t.insert('Alice', 'a')).toBe(-1);
    expect(t.insert('ALICE', 'b')).toBe(0);
    expect(t.valueAt(t.find('alice'))).toBe('a');
    expect(t.find('bob')).toBe(-1);
  });
  it('keeps keys with different salts apart', () => {
    const t = new NameTable();
    t.insert('x', 1, 1);
    expect(t.find('x', 2)).toBe(-1);
    expect(t.insert('X', 2, 2)).toBe(-1);
    expect(t.find('x', 1)).toBe(0);
  });
  it('folds non-ASCII case like toLowerCase', () => {
    const t = new NameTable();
    t.insert('ÉCOLE', 1);
    expect(t.find('école')).toBe(0);
    expect(sameName('Straße', 'STRASSE')).toBe('Straße'.toLowerCase() === 'STRASSE'.toLowerCase());
  });
  it('behaves like a Map of lower-cased keys, across growth', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 300 }), (names) => {
        const t = new NameTable<number>();
        const m = new Map<string, number>();
        names.forEach((n, i) => {
          const existing = m.get(n.toLowerCase());
          const r = t.insert(n, i);
          if (existing === undefined) {
            expect(r).toBe(-1);
            m.set(n.toLowerCase(), i);
          } else expect(t.valueAt(r)).toBe(existing);
        });
        expect(t.size).toBe(m.size);
        for (const [k, v] of m) expect(t.valueAt(t.find(k.toUpperCase()))).toBe(v);
      }),
    );
  });
});
