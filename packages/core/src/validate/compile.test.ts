import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { compile } from './compile.js';
import { compilePredicate } from './compile-predicate.js';
import { CheckContext } from './context.js';
import { fixture } from '../private-test-helpers/fixtures.js';
import { payloadSchemas } from '../schemas/templates.js';
import { multipartRequestSchema, pushRequestSchema } from '../schemas/requests.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every path to a value inside `root`. */
function paths(root: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(root)) root.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (root && typeof root === 'object')
    for (const [k, v] of Object.entries(root)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function setAt(root: Json, path: (string | number)[], value: Json | undefined): Json {
  if (path.length === 0) return value ?? null;
  const copy = structuredClone(root) as any;
  let node = copy;
  for (const seg of path.slice(0, -1)) node = node[seg];
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

const interesting = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    '',
    'x'.repeat(300),
    'DataRead',
    'local_user',
    'STRING',
    '2024-01-01T00:00:00Z',
    'bad\ud800',
    'a-b',
    [],
    {},
    null,
    -1,
    1.5,
    0,
    true,
  ),
);

describe('the compiled checker agrees with zod', () => {
  it.each([
    ['application', 'application'],
    ['identity_provider', 'identity-provider'],
    ['hris', 'hris'],
  ] as const)('on random mutations of a valid %s payload', (template, file) => {
    const base = fixture<Json>(file);
    const all = paths(base);
    const schema = payloadSchemas[template];
    const check = compile(schema);
    const isValid = compilePredicate(schema);
    fc.assert(
      fc.property(
        fc.nat(all.length - 1),
        fc.option(interesting, { nil: undefined }),
        fc.boolean(),
        (i, value, addKey) => {
          let path = all[i]!;
          if (addKey && value !== undefined) path = [...path, 'extra_key'];
          let mutated: Json;
          try {
            mutated = setAt(base, path, value);
          } catch {
            return; // a path under a scalar: nothing to mutate
          }
          const ctx = new CheckContext();
          check(mutated, ctx);
          const zod = schema.safeParse(mutated);
          expect(
            ctx.errors.length === 0,
            JSON.stringify({ path, value, errors: ctx.errors, zod: zod.error?.issues }),
          ).toBe(zod.success);
          // The generated predicate alone, which the checker trusts for valid values.
          expect(isValid(mutated), JSON.stringify({ path, value })).toBe(zod.success);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('on request bodies', () => {
    const cases = [
      [pushRequestSchema, { id: 'p', data_source_id: 'd', json_data: 'e30=', compression_type: 0 }, true],
      [
        pushRequestSchema,
        { id: 'p', data_source_id: 'd', json_data: 'e30=', compression_type: 'ZIP' },
        false,
      ],
      [
        multipartRequestSchema,
        {
          operation: 'upload',
          upload_id: '0b6f1d56-4a7c-4c1e-9f0e-2a3b4c5d6e7f',
          sequence_number: 99,
          data: '',
        },
        true,
      ],
      [
        multipartRequestSchema,
        { operation: 'upload', upload_id: 'nope', sequence_number: 100, data: '' },
        false,
      ],
      [
        multipartRequestSchema,
        { operation: 'complete', upload_id: '0b6f1d56-4a7c-4c1e-9f0e-2a3b4c5d6e7f', sequence_count: 1.5 },
        false,
      ],
    ] as const;
    for (const [schema, body, ok] of cases) {
      const ctx = new CheckContext();
      compile(schema)(body, ctx);
      expect(ctx.errors.length === 0).toBe(ok);
      expect(schema.safeParse(body).success).toBe(ok);
    }
  });

  it('refuses to compile schema features it does not understand', () => {
    expect(() => compile(z.string().transform((s) => s.length))).toThrow(/not supported/);
    expect(() => compilePredicate(z.string().transform((s) => s.length))).toThrow(/not supported/);
    expect(() => compilePredicate(z.object({ at: z.date() }))).toThrow(/not supported/);
  });

  it('generates code whose keys and values are data, never source text', () => {
    // Keys that would break out of a string literal, or end a line inside one, if pasted raw.
    const key = "a\"b\\\n\u2028\u2029`${x}`'); throw new Error('injected'); //";
    const schema = z.strictObject({
      [key]: z.string().max(3),
      kind: z.enum(['x"', "y'", '\u2028']),
      n: z.number().int().min(-1).optional(),
    });
    const isValid = compilePredicate(schema);
    const ok = { [key]: 'abc', kind: '\u2028', n: -1 };
    const cases: unknown[] = [
      ok,
      { ...ok, [key]: 'abcd' },
      { ...ok, kind: 'x' },
      { ...ok, n: 0.5 },
      { ...ok, n: -2 },
      { ...ok, other: 1 },
      { kind: 'x"' },
    ];
    for (const value of cases) {
      const ctx = new CheckContext();
      compile(schema)(value, ctx);
      const expected = schema.safeParse(value).success;
      expect(isValid(value), JSON.stringify(value)).toBe(expected);
      expect(ctx.errors.length === 0, JSON.stringify(ctx.errors)).toBe(expected);
    }
    expect(isValid(ok)).toBe(true);
  });

  it('tests lists of plain values, short or long, shared or not, alike', () => {
    const schema = z.strictObject({ names: z.array(z.string().max(2)).nullish() });
    const isValid = compilePredicate(schema);
    const list = (n: number, last = 'ab') => [...Array.from({ length: n - 1 }, () => 'ab'), last];
    const shared = Object.freeze(list(30));
    const cases: [unknown, boolean][] = [
      [{ names: list(3) }, true],
      [{ names: list(3, 'abc') }, false],
      [{ names: list(30) }, true],
      [{ names: list(30, 'abc') }, false],
      [{ names: shared }, true],
      [{ names: shared }, true],
      [{ names: [1] }, false],
      [{ names: null }, true],
      [{ names: 'ab' }, false],
    ];
    for (const [value, ok] of cases) {
      expect(isValid(value), JSON.stringify(value)).toBe(ok);
      expect(schema.safeParse(value).success).toBe(ok);
    }
  });

  it('reports the same violations for streamed collections, which the predicate leaves to the walk', () => {
    const schema = z.strictObject({ names: z.array(z.string().max(2)) });
    const streamed = {
      names: {
        *[Symbol.iterator]() {
          yield 'ab';
          yield 'abc';
          yield 7;
        },
      },
    };
    expect(compilePredicate(schema)(streamed)).toBe(false);
    const ctx = new CheckContext();
    compile(schema)(streamed, ctx);
    expect(ctx.errors).toEqual([
      { field: 'names[1]', description: 'must have at most 2 characters, got 3' },
      { field: 'names[2]', description: 'must be a string, got number' },
    ]);
  });
});
