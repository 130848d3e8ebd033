import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OaaError } from '../errors.js';
import { jsonChunks } from './json-chunks.js';
import type { JsonChunksOptions } from './json-chunks.js';

async function serialize(value: unknown, options?: JsonChunksOptions): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonChunks(value, options)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** UTF-16 units that exercise every escaping branch: controls, quotes, DEL, 2- and 3-byte UTF-8, lone and paired surrogates. */
const unit = fc.oneof(
  fc.constantFrom(
    '"',
    '\\',
    '/',
    '\u007f',
    '\u2028',
    '\u00e9',
    '\u20ac',
    '\ud83d\ude00',
    '\ud800',
    '\udfff',
    '\ud800x',
  ),
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.string({ unit: 'binary', maxLength: 3 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
);
const text = fc.string({ unit, maxLength: 20 });

/** JSON-compatible values plus everything JSON.stringify treats specially. */
const { value: anyValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constantFrom(null, undefined, -0, Number.NaN, Infinity, () => 1, Symbol('s')),
    fc.date(),
    fc.array(tie('value'), { maxLength: 6 }),
    fc.sparseArray(tie('value'), { maxLength: 6 }),
    fc.dictionary(text, tie('value'), { maxKeys: 6 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4, noNullPrototype: false }),
  ),
}));

describe('jsonChunks', () => {
  it('writes exactly what JSON.stringify writes', async () => {
    await fc.assert(
      fc.asyncProperty(anyValue, async (v) => {
        fc.pre(JSON.stringify(v) !== undefined);
        expect(await serialize(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 500 },
    );
  });

  it('writes exactly what JSON.stringify writes for fc.jsonValue and binary strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.string({ unit: 'binary' }), async (v, s) => {
        expect(await serialize(v)).toBe(JSON.stringify(v));
        expect(await serialize(s)).toBe(JSON.stringify(s));
      }),
    );
  });

  it('gives the same bytes whatever the chunk size, streaming threshold and event-loop turns', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyValue,
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 50 }),
        async (v, chunkSize, maxSyncBytes, yieldEveryBytes) => {
          fc.pre(JSON.stringify(v) !== undefined);
          const chunks: Buffer[] = [];
          for await (const chunk of jsonChunks(v, { chunkSize, maxSyncBytes, yieldEveryBytes }))
            chunks.push(chunk);
          expect(Buffer.concat(chunks).toString('utf8')).toBe(JSON.stringify(v));
          for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(chunkSize);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('escapes lone surrogates and control characters like JSON.stringify', async () => {
    const v = { '\ud800': '\udc00a\ud83d\ude00\u0000\u001f\b\f\n\r\t"\\', '\u00e9': ['\u20ac', '\udbff'] };
    expect(await serialize(v)).toBe(JSON.stringify(v));
    expect(await serialize(v)).toContain('\\ud800');
  });

  it('honours toJSON, boxed primitives, class instances and omitted values', async () => {
    class Point {
      constructor(
        public x: number,
        public y: number,
      ) {}
    }
    const v = {
      date: new Date(Date.UTC(2024, 0, 1)),
      invalidDate: new Date(Number.NaN),
      custom: { toJSON: (key: string) => `key=${key}` },
      gone: { toJSON: () => undefined },
      list: [{ toJSON: (key: string) => `item ${key}` }, () => 1, undefined, Symbol('x'), Number.NaN, -0],
      boxed: [Object(1.5) as unknown, Object('s') as unknown, Object(true) as unknown],
      point: new Point(1, 2),
      noProto: Object.assign(Object.create(null) as object, { a: 1 }),
      fn: () => 1,
      undef: undefined,
      buffer: Buffer.from('hi'),
    };
    expect(await serialize(v)).toBe(JSON.stringify(v));
    expect(await serialize(v, { maxSyncBytes: 0 })).toBe(JSON.stringify(v));
    expect(await serialize(new Date(0))).toBe(JSON.stringify(new Date(0)));
  });

  it('reports a BigInt with its path', async () => {
    const error = await serialize({ applications: [{ users: [1, 2n] }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OaaError);
    expect(error).toMatchObject({
      code: 'PAYLOAD_NOT_SERIALIZABLE',
      details: { path: 'applications[0].users[1]' },
    });
  });

  it('reports a circular reference instead of overflowing the stack', async () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = { again: a };
    const error = await serialize({ root: a }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PAYLOAD_NOT_SERIALIZABLE' });
    expect((error as OaaError).message).toContain('circular');
  });

  it('writes deep but finite nesting', async () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 500; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    expect(await serialize(deep)).toBe(JSON.stringify(deep));
  });

  it('refuses an undefined payload', async () => {
    await expect(serialize(undefined)).rejects.toMatchObject({ code: 'PAYLOAD_NOT_SERIALIZABLE' });
  });
});
