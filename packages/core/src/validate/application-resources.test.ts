import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Resource } from '../schemas/application.js';
import { ResourceIndex } from './application-resources.js';
import { CheckContext } from './context.js';

/** The reference: every dot-path of every resource, each step by name or id, lower-cased. */
function paths(resources: readonly Resource[], prefixes: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  for (const r of resources) {
    const mine: string[] = [];
    for (const step of r.id != null ? [r.name, r.id] : [r.name])
      mine.push(...(prefixes.length ? prefixes.map((p) => `${p}.${step}`) : [step]));
    for (const p of mine) out.add(p.toLowerCase());
    if (r.sub_resources) for (const p of paths(r.sub_resources, mine)) out.add(p);
  }
  return out;
}

const step = fc.constantFrom('a', 'A', 'b', 'a.b', 'B.a', 'c', 'main');
const tree: fc.Arbitrary<Resource[]> = fc.letrec<{ list: Resource[] }>((tie) => ({
  list: fc.array(
    fc.record(
      {
        name: step,
        id: fc.option(fc.constantFrom('1', '2', 'a', 'x.1'), { nil: undefined }),
        resource_type: fc.constant('t'),
        sub_resources: fc.oneof({ depthSize: 'small' }, fc.constant(undefined), tie('list')),
      },
      { requiredKeys: ['name', 'resource_type'] },
    ),
    // Past eight siblings a list is hashed instead of searched: both ways are exercised.
    { maxLength: 12 },
  ),
})).list;

function index(resources: readonly Resource[]): ResourceIndex {
  const idx = new ResourceIndex(() => undefined, false);
  idx.walkRoot(resources, new CheckContext());
  return idx;
}

describe('ResourceIndex', () => {
  it('resolves a reference exactly when some path of names and ids spells it, without regard to case', () => {
    fc.assert(
      fc.property(
        tree,
        fc.array(fc.array(step, { minLength: 1, maxLength: 3 }), { maxLength: 20 }),
        (resources, refs) => {
          const idx = index(resources);
          const known = paths(resources);
          for (const ref of [...refs.map((r) => r.join('.')), ...known])
            expect(idx.has(ref), ref).toBe(known.has(ref.toLowerCase()));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('resolves the same references when lists alternate between arrays and streamed lists', () => {
    // Read once, like a streamed collection; the index keeps what it needs of the resources.
    const streamAt = (list: readonly Resource[], depth: number, parity: number): Iterable<Resource> => {
      // A streamed sub-resource list stands where the schema's type has an array.
      const items = list.map((r): Resource =>
        r.sub_resources
          ? { ...r, sub_resources: streamAt(r.sub_resources, depth + 1, parity) as Resource[] }
          : r,
      );
      if (depth % 2 !== parity) return items;
      return {
        *[Symbol.iterator]() {
          yield* items;
        },
      };
    };
    fc.assert(
      fc.property(
        tree,
        fc.nat(1),
        fc.array(fc.array(step, { minLength: 1, maxLength: 3 }), { maxLength: 20 }),
        (resources, parity, refs) => {
          const idx = new ResourceIndex(() => undefined, false);
          idx.walkRoot(streamAt(resources, 0, parity), new CheckContext());
          const known = paths(resources);
          for (const ref of [...refs.map((r) => r.join('.')), ...known])
            expect(idx.has(ref), ref).toBe(known.has(ref.toLowerCase()));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds sub-resources of a streamed list of resources', () => {
    const streamed: Iterable<Resource> = {
      *[Symbol.iterator]() {
        yield {
          name: 'repo',
          resource_type: 'repo',
          sub_resources: [{ name: 'main', resource_type: 'branch' }],
        };
      },
    };
    const idx = new ResourceIndex(() => undefined, false);
    idx.walkRoot(streamed, new CheckContext());
    expect(idx.has('REPO.Main')).toBe(true);
    expect(idx.has('repo.dev')).toBe(false);
  });
});
