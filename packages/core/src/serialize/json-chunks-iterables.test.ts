import { setImmediate as macrotaskTurn } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from './json-chunks.js';
import type { JsonChunksOptions } from './json-chunks.js';

async function serialize(value: unknown, options?: JsonChunksOptions): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonChunks(value, options)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

type Form = 'array' | 'generator' | 'iterator' | 'async' | 'async-macrotask' | 'literal' | 'async-literal';

function* syncItems(items: unknown[]): Generator<unknown> {
  for (let i = 0; i < items.length; i++) yield items[i];
}

async function* asyncItems(items: unknown[], macrotask: boolean): AsyncGenerator<unknown> {
  for (let i = 0; i < items.length; i++) {
    if (macrotask) await macrotaskTurn();
    else await Promise.resolve();
    yield items[i];
  }
}

/** Replaces arrays, at every depth, by iterables of the forms taken in turn from `forms`. */
function streamify(value: unknown, forms: Form[], counter = { i: 0 }): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  if (Array.isArray(value)) {
    const items = Array.from({ length: value.length }, (_, i) =>
      streamify(value[i] as unknown, forms, counter),
    );
    const form = forms[counter.i++ % forms.length] ?? 'array';
    switch (form) {
      case 'array':
        return items;
      case 'generator':
        return syncItems(items);
      case 'iterator':
        return items.values();
      case 'async':
        return asyncItems(items, false);
      case 'async-macrotask':
        return asyncItems(items, true);
      case 'literal':
        // An object literal that is iterable (its prototype is Object.prototype)
        return {
          *[Symbol.iterator]() {
            yield* items;
          },
        };
      case 'async-literal':
        return {
          async *[Symbol.asyncIterator]() {
            for (const item of items) yield await Promise.resolve(item);
          },
        };
    }
  }
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, k, { value: streamify(v, forms, counter), enumerable: true, writable: true });
  }
  return out;
}

const form = fc.constantFrom<Form>(
  'array',
  'generator',
  'iterator',
  'async',
  'async-macrotask',
  'literal',
  'async-literal',
);

describe('jsonChunks with iterables in array positions', () => {
  it('writes any mix of arrays, iterables and async iterables as the arrays they stand for', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 4 }),
        fc.array(form, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        async (v, forms, chunkSize, maxSyncBytes) => {
          const streamed = streamify(v, forms);
          expect(await serialize(streamed, { chunkSize, maxSyncBytes })).toBe(JSON.stringify(v));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes an object literal with fields as a record even when it is iterable, however it is walked', async () => {
    const value = () => ({
      x: {
        a: 1,
        *[Symbol.iterator]() {
          yield 2;
        },
      },
      y: {
        *[Symbol.iterator]() {
          yield 3;
        },
      },
    });
    for (const maxSyncBytes of [0, 1, 1 << 20])
      expect(await serialize(value(), { maxSyncBytes })).toBe('{"x":{"a":1},"y":[3]}');
  });

  it('writes empty and nested iterables', async () => {
    async function* none(): AsyncGenerator<unknown> {}
    async function* pages(): AsyncGenerator<unknown> {
      await macrotaskTurn();
      yield asyncItems([1, syncItems([]), none()], true);
      yield none();
      yield [syncItems([asyncItems(['deep'], false)])];
    }
    const v = { a: none(), b: syncItems([]), c: pages(), d: new Set([1, 'two']), e: new Map([['k', 1]]) };
    expect(await serialize(v)).toBe(
      '{"a":[],"b":[],"c":[[1,[],[]],[],[[["deep"]]]],"d":[1,"two"],"e":[["k",1]]}',
    );
  });

  it('streams a root async iterable of entities with toJSON items and omitted values', async () => {
    const v = asyncItems([new Date(0), undefined, { name: 'x', skip: undefined }, () => 1], false);
    expect(await serialize(v)).toBe('["1970-01-01T00:00:00.000Z",null,{"name":"x"},null]');
  });

  it('streams many entities in chunks of the requested size', async () => {
    async function* users(): AsyncGenerator<unknown> {
      for (let i = 0; i < 5000; i++) {
        if (i % 1000 === 0) await macrotaskTurn(); // a page fetched from the source system
        yield { name: `user${i}`, groups: syncItems([`g${i % 7}`]) };
      }
    }
    const chunks: Buffer[] = [];
    for await (const chunk of jsonChunks(
      { applications: [{ name: 'app', local_users: users() }] },
      { chunkSize: 4096 },
    )) {
      chunks.push(chunk);
    }
    expect(chunks.length).toBeGreaterThan(20);
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      applications: { local_users: unknown[] }[];
    };
    expect(parsed.applications[0]?.local_users).toHaveLength(5000);
    expect(parsed.applications[0]?.local_users[4999]).toEqual({ name: 'user4999', groups: ['g1'] });
  });

  it("passes an iterable's error to the consumer", async () => {
    async function* failing(): AsyncGenerator<unknown> {
      yield await Promise.resolve(1);
      throw new Error('source system unavailable');
    }
    await expect(serialize({ users: failing() })).rejects.toThrow('source system unavailable');
  });

  it('closes the iterables when the consumer stops early', async () => {
    const closed: string[] = [];
    async function* users(): AsyncGenerator<unknown> {
      try {
        for (let i = 0; ; i++) yield await Promise.resolve({ name: `user${i}`, padding: 'x'.repeat(100) });
      } finally {
        closed.push('users');
      }
    }
    let chunks = 0;
    for await (const _chunk of jsonChunks({ users: users() }, { chunkSize: 1024 })) {
      if (++chunks === 3) break;
    }
    expect(closed).toEqual(['users']);
  });
});

describe('frozen objects shared between entities', () => {
  const deepFreeze = <T>(x: T): T => {
    if (typeof x === 'object' && x !== null) {
      for (const v of Object.values(x)) deepFreeze(v);
      Object.freeze(x);
    }
    return x;
  };

  it('are written like JSON.stringify writes them, however often they repeat', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (shared, picks) => {
          const frozen = shared.map((v) => deepFreeze(structuredClone(v)));
          const entities = picks.map((p, i) => ({ i, grant: frozen[p % frozen.length] }));
          expect(await serialize({ entities: syncItems(entities) }, { chunkSize: 16 })).toBe(
            JSON.stringify({ entities }),
          );
        },
      ),
    );
  });

  it('are written again when something inside them may have changed', async () => {
    const inner = { role: 'reader' };
    const sharedShallow = Object.freeze([inner]);
    const withDate = Object.freeze({ at: new Date(0) });
    function* entities() {
      for (const role of ['reader', 'writer', 'owner']) {
        inner.role = role;
        withDate.at.setTime(withDate.at.getTime() + 1000);
        yield { grants: sharedShallow, when: withDate };
      }
    }
    let calls = 0;
    const counting = Object.freeze({
      get n() {
        return ++calls;
      },
    });
    const text = await serialize({ entities: entities(), counted: [counting, counting, counting] });
    expect(JSON.parse(text).counted).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(JSON.parse(text).entities.map((e: any) => [e.grants[0].role, e.when.at])).toEqual([
      ['reader', '1970-01-01T00:00:01.000Z'],
      ['writer', '1970-01-01T00:00:02.000Z'],
      ['owner', '1970-01-01T00:00:03.000Z'],
    ]);
  });
});
