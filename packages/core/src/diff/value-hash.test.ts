import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { templateSpec } from './entity-kinds.js';
import { encodeOwn, hashOwn } from './entity-parts.js';
import type { JsonObject } from './json.js';

const applications = templateSpec('application').collections.find((c) => c.field === 'applications')!.spec;
const users = applications.children.find((c) => c.field === 'local_users')!.spec;
const resources = applications.children.find((c) => c.field === 'resources')!.spec;

type Spec = typeof users;
const hashOf = (spec: Spec, entity: JsonObject): string => [...hashOwn(spec, entity)].join(',');

/**
 * The same data with every object's keys in reverse order and, outside `tags` (whose items must
 * keep their shape to read as tags), an unused field added to each object.
 */
function reshaped(value: unknown, salt: number, inTags = false): unknown {
  if (Array.isArray(value)) return value.map((v, i) => reshaped(v, salt + i, inTags));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  const unused = [null, [], {}, undefined, { nested: [] }, Number.NaN];
  if (!inTags) out[`unused_${salt}`] = unused[salt % unused.length];
  for (const key of Object.keys(value).reverse())
    out[key] = reshaped((value as Record<string, unknown>)[key], salt + 1, inTags || key === 'tags');
  return out;
}

/** Strings with escapes, control characters, surrogate pairs and lone surrogates. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', '"', '\\', '\u0000\u001f\t\n', '\ud800 lone', 'pair \ud83d\ude00', '\u2028'),
);

const leaf = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
);

const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('list'), tie('object')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'name', 'tags', 'groups', 'x y', '"q"'), tie('value'), {
    maxKeys: 4,
  }),
}));

const entity = fc.dictionary(
  fc.constantFrom('name', 'email', 'groups', 'tags', 'custom_properties', 'is_active', 'sub_resources', 'z'),
  value,
  { maxKeys: 6 },
) as fc.Arbitrary<JsonObject>;

describe('hashOwn (value-hash)', () => {
  it('is the same for entities whose canonical text is the same: key order and unused fields do not count', () => {
    fc.assert(
      fc.property(entity, fc.nat(20), (e, salt) => {
        const other = reshaped(e, salt) as JsonObject;
        expect(encodeOwn(users, other)).toBe(encodeOwn(users, e));
        expect(hashOf(users, other)).toBe(hashOf(users, e));
      }),
      { numRuns: 500 },
    );
  });

  it('differs for entities whose canonical text differs', () => {
    fc.assert(
      fc.property(entity, entity, (a, b) => {
        const same = encodeOwn(users, a) === encodeOwn(users, b);
        expect(hashOf(users, a) === hashOf(users, b)).toBe(same);
      }),
      { numRuns: 2000 },
    );
  });

  it('tells apart what the canonical text tells apart, and nothing else', () => {
    const pairs: [JsonObject, JsonObject, boolean][] = [
      [{ name: 'a', n: '1' }, { name: 'a', n: 1 }, false],
      [{ name: 'a', n: 5 }, { name: 'a', n: 5n }, true],
      [{ name: 'a', b: true }, { name: 'a', b: 'true' }, false],
      [{ x: 'p', y: 'q' }, { x: 'q', y: 'p' }, false],
      [{ groups: ['g1', 'g2'] }, { groups: ['g2', 'g1'] }, false],
      [{ groups: [null] }, { groups: [[]] }, true],
      [{ name: 'a', custom_properties: {} }, { name: 'a' }, true],
      [{ name: 'a', custom_properties: { d: { e: [] } } }, { name: 'a' }, true],
      [{ name: 'a', at: new Date(0) }, { name: 'a', at: '1970-01-01T00:00:00.000Z' }, true],
      [
        { tags: [{ key: 'b', value: '2' }, { key: 'a' }] },
        { tags: [{ key: 'a' }, { key: 'b', value: '2' }] },
        true,
      ],
      [{ tags: [{ key: 'a', value: '1' }] }, { tags: [{ key: 'a', value: '2' }] }, false],
      [{ name: 'a', sub_resources: [{ name: 'x' }], operation: 'add' }, { name: 'a' }, true],
      [{}, { name: null }, true],
      [{}, { name: '' }, false],
      [{ name: '\ud800' }, { name: '\udc00' }, false],
    ];
    for (const [a, b, same] of pairs) {
      const spec = 'sub_resources' in a ? resources : users;
      expect(encodeOwn(spec, a) === encodeOwn(spec, b), JSON.stringify(encodeOwn(spec, a))).toBe(same);
      expect(hashOf(spec, a) === hashOf(spec, b), JSON.stringify(encodeOwn(spec, a))).toBe(same);
    }
  });

  it('hashes deeply frozen values (kept once hashed) like unfrozen copies of them', () => {
    const freeze = (v: unknown): unknown => {
      if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
        for (const x of Object.values(v)) freeze(x);
        Object.freeze(v);
      }
      return v;
    };
    fc.assert(
      fc.property(entity, (e) => {
        const copy = structuredClone(e);
        const frozen = { ...e, groups: freeze(structuredClone(e.groups)), z: freeze(structuredClone(e.z)) };
        const expected = hashOf(users, copy);
        expect(hashOf(users, frozen)).toBe(expected);
        expect(hashOf(users, frozen)).toBe(expected);
        // A frozen value held by another entity is not taken for that entity's value.
        expect(hashOf(users, { ...frozen, name: 'other' })).toBe(hashOf(users, { ...copy, name: 'other' }));
      }),
      { numRuns: 300 },
    );
  });

  it('hashes each shared frozen value once, however many a long-lived process has seen', () => {
    // More distinct frozen values than a cache of 65,536 would keep (as a daemon sees over its
    // life), each held by two entities. Reads of their field are counted.
    const n = 70_000;
    let reads = 0;
    const values = Array.from(
      { length: n },
      (_, i) =>
        new Proxy(Object.freeze({ id: `g${i}` }), {
          get(target, key, receiver) {
            if (key === 'id') reads++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        }),
    );
    const first = values.map((g) => hashOf(users, { name: 'ann', grant: g }));
    expect(reads).toBe(n);
    const second = values.map((g) => hashOf(users, { name: 'bo', grant: g }));
    expect(reads).toBe(n);
    // Hashed like unfrozen copies, each its own value.
    for (let i = 0; i < n; i += 997) {
      expect(first[i]).toBe(hashOf(users, { name: 'ann', grant: { id: `g${i}` } }));
      expect(second[i]).toBe(hashOf(users, { name: 'bo', grant: { id: `g${i}` } }));
    }
    expect(new Set(first).size).toBe(n);
  });

  it('hashes strings far longer than usual without trouble', () => {
    const huge = 'x'.repeat(3_000_000);
    expect(hashOf(users, { name: huge })).not.toBe(hashOf(users, { name: `${huge}y` }));
    expect(hashOf(users, { name: huge })).toBe(hashOf(users, { name: 'x'.repeat(3_000_000) }));
  });
});
