import { describe, expect, it } from 'vitest';
import { templateSpec } from './entity-kinds.js';
import { encodeOwn, hashOwn } from './entity-parts.js';
import { hash128 } from './hash128.js';
import type { JsonObject } from './json.js';

const applications = templateSpec('application').collections.find((c) => c.field === 'applications')!.spec;
const users = applications.children.find((c) => c.field === 'local_users')!.spec;
const resources = applications.children.find((c) => c.field === 'resources')!.spec;

/** The text the entity hash stands for, and the hash written without it, as hex. */
function both(spec: typeof users, entity: JsonObject): [string, string] {
  const viaText = [...hash128(encodeOwn(spec, entity))].join(',');
  const direct = [...hashOwn(spec, entity)].join(',');
  return [viaText, direct];
}

function randomText(rng: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rng();
    if (r < 0.05)
      s += String.fromCharCode(Math.floor(rng() * 0x20)); // control characters
    else if (r < 0.1) s += ['"', '\\', '\u2028', '\u{1F600}'][Math.floor(rng() * 4)];
    else if (r < 0.13)
      s += String.fromCharCode(0xd800 + Math.floor(rng() * 0x800)); // lone surrogate
    else s += String.fromCharCode(32 + Math.floor(rng() * 95));
  }
  return s;
}

function rng(seed: number): () => number {
  let x = seed;
  return () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

describe('hashOwn', () => {
  it('equals hash128 of the canonical text (encodeOwn) for entities of every shape', () => {
    const cases: JsonObject[] = [
      {},
      { name: 'ann', groups: [], identities: null, custom_properties: {} },
      { name: 'bo', email: 'b"o\\@example.com', is_active: true, created_at: new Date(0), n: 1.5e300 },
      { name: 'cy', nan: Number.NaN, inf: Infinity, big: 12345678901234567890n, neg: -0 },
      { name: 'dee', tags: [{ key: 'b', value: '2' }, { key: 'a' }], groups: ['g1', null, 'g2'] },
      { name: 'ed', custom_properties: { z: { y: [] }, a: [[], {}, 'x'], m: { deep: { er: 1 } } } },
      { name: 'fay', sub_resources: [{ name: 'x' }], operation: 'add', description: '\u0000\u001f\t\n' },
      { name: '\ud800 lone', other: 'pair \ud83d\ude00 and \udc00 reversed' },
    ];
    for (const entity of cases) {
      const [viaText, direct] = both(users, entity);
      expect(direct, JSON.stringify(encodeOwn(users, entity))).toBe(viaText);
    }
    const [viaText, direct] = both(resources, cases[6]!);
    expect(direct).toBe(viaText);
  });

  it('equals hash128 of the canonical text for strings far longer than its buffer, and after them', () => {
    // Surrogate pairs and escapes across every stretch boundary; then a string past the buffer kept.
    const pairs = '\u{1F600}"\\\n'.repeat(10_000);
    const huge = 'x'.repeat(3_000_000);
    // A pair whose second half starts a new stretch, then plain text (no escape to grow the buffer).
    const straddling = `${'a'.repeat(4095)}\u{1F600}${'b'.repeat(100_000)}`;
    for (const entity of [
      { name: pairs },
      { name: `a${pairs}` },
      { name: straddling },
      { name: huge, d: pairs },
      { name: 'after' },
    ]) {
      const [viaText, direct] = both(users, entity);
      expect(direct).toBe(viaText);
    }
  });

  it('equals hash128 of the canonical text for random strings, short and long', () => {
    const r = rng(7);
    for (let i = 0; i < 500; i++) {
      const entity = { name: randomText(r, i % 40), [randomText(r, 3)]: randomText(r, (i * 37) % 3000) };
      const [viaText, direct] = both(users, entity);
      expect(direct).toBe(viaText);
    }
  });
});
