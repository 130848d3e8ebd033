import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from './compile.js';
import { CheckContext } from './context.js';
import { fixture } from '../test-support/fixtures.js';
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

  it('refuses to compile schema features it does not understand', async () => {
    const z = await import('zod');
    expect(() => compile(z.string().transform((s) => s.length))).toThrow(/not supported/);
  });
});
