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
  it('folds a non-ASCII letter that lower-cases to ASCII (the Kelvin sign)', () => {
    const t = new NameTable();
    t.insert('kelvin', 1);
    expect(t.find('\u212Aelvin')).toBe(0);
    expect(t.insert('\u212AELVIN', 2)).toBe(0);
    const u = new NameTable();
    u.insert('\u212Aelvin', 1);
    expect(u.find('KELVIN')).toBe(0);
  });
  it.each([
    ['ASCII', fc.string({ maxLength: 6 })],
    [
      'Unicode',
      fc.string({
        unit: fc.constantFrom('a', 'B', 'é', 'É', '\u212A', 'k', 'İ', 'i', 'ß', 'Σ', 'σ', 'ς', '😀'),
        maxLength: 4,
      }),
    ],
  ])('behaves like a Map of lower-cased keys, across growth (%s)', (_what, name) => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 300 }), fc.boolean(), (names, positions) => {
        // Tables of positions keep their values in a typed array: both kinds behave alike.
        const t = positions ? NameTable.ofPositions() : new NameTable<number>();
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
        for (const k of m.keys()) {
          // Upper-casing is not always undone by lower-casing ('ß' -> 'SS'): ask the Map what to expect.
          const other = m.get(k.toUpperCase().toLowerCase());
          const found = t.find(k.toUpperCase());
          expect(found === -1 ? undefined : t.valueAt(found)).toBe(other);
        }
      }),
    );
  });
  it('finds repeated keys appended in bulk, reporting each at its first earlier entry, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'A', 'b', 'B', 'c', 'd', 'É', 'é'), { maxLength: 40 }),
        (names) => {
          const t = NameTable.ofPositions();
          names.forEach((n, i) => t.append(n, 100 + i));
          const found: [number, number][] = [];
          t.indexPending((entry, earlier) => found.push([entry, earlier]));
          const first = new Map<string, number>();
          const expected: [number, number][] = [];
          names.forEach((n, i) => {
            const at = first.get(n.toLowerCase());
            if (at === undefined) first.set(n.toLowerCase(), i);
            else expected.push([i, at]);
          });
          expect(found).toEqual(expected);
          for (const [key, at] of first) expect(t.valueAt(t.find(key.toUpperCase()))).toBe(100 + at);
        },
      ),
    );
  });
});
