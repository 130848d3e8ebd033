import { buffer } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { OaaError } from '../errors.js';
import { measurePayload, payloadToBuffer } from './payload-buffer.js';
import { createPayloadStream } from './payload-stream.js';
import type { PayloadStreamOptions } from './payload-stream.js';

/** Turns the stream output back into the JSON text, for each combination of options. */
function decode(output: Buffer, options: PayloadStreamOptions): { json: string; compressed: Buffer } {
  const encoded =
    options.encoding === 'json-string'
      ? Buffer.from(JSON.parse(`"${output.toString('latin1')}"`) as string)
      : options.encoding === 'binary'
        ? output
        : Buffer.from(output.toString('latin1'), 'base64');
  const json = options.compression === 'none' ? encoded : gunzipSync(encoded);
  return { json: json.toString('utf8'), compressed: encoded };
}

const optionSets: PayloadStreamOptions[] = [
  {},
  { compression: 'gzip', level: 1, encoding: 'binary' },
  { compression: 'gzip', level: 9, encoding: 'base64', chunkSize: 64 },
  { compression: 'none', encoding: 'binary', chunkSize: 16 },
  { compression: 'none', encoding: 'base64' },
  { compression: 'none', encoding: 'json-string', chunkSize: 7 },
];

/** ~`size` characters of hex from a deterministic generator: text that gzip shrinks only about twofold. */
function noise(seed: number, size: number): string {
  let x = seed + 1;
  let out = '';
  while (out.length < size) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += x.toString(16);
  }
  return out;
}

/**
 * Waits until `count()` has moved past 0 and then stops changing: a producer that never started
 * fails here instead of passing as "stalled". (The sleeps only bound how long the test looks; it
 * asserts no duration.)
 */
async function untilStalled(count: () => number): Promise<void> {
  await vi.waitFor(() => expect(count()).toBeGreaterThan(0), { timeout: 30_000, interval: 5 });
  let stable = 0;
  for (let i = 0; i < 200 && stable < 5; i++) {
    const before = count();
    await sleep(10);
    stable = count() === before ? stable + 1 : 0;
  }
}

describe('createPayloadStream', () => {
  it('round-trips any JSON value through every compression and encoding, with exact counters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 3 }),
        fc.string({ unit: 'binary' }),
        fc.constantFrom(...optionSets),
        async (v, s, options) => {
          const value = { v, s };
          const { stream, counters } = createPayloadStream(value, options);
          const output = await buffer(stream);
          const { json, compressed } = decode(output, options);
          expect(json).toBe(JSON.stringify(value));
          expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)));
          expect(counters).toEqual({
            jsonBytes: Buffer.byteLength(JSON.stringify(value)),
            compressedBytes: compressed.length,
            outputBytes: output.length,
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('streams an async iterable of entities through gzip and base64', async () => {
    async function* users(): AsyncGenerator<unknown> {
      for (let i = 0; i < 20_000; i++) {
        yield await Promise.resolve({
          name: `user${i}`,
          identities: [`user${i}@example.com`],
          is_active: i % 10 !== 0,
        });
      }
    }
    const { data, jsonBytes, compressedBytes, outputBytes } = await payloadToBuffer({
      applications: [{ name: 'a', local_users: users() }],
    });
    const parsed = JSON.parse(
      gunzipSync(Buffer.from(data.toString('latin1'), 'base64')).toString('utf8'),
    ) as {
      applications: { local_users: unknown[] }[];
    };
    expect(parsed.applications[0]?.local_users).toHaveLength(20_000);
    expect(outputBytes).toBe(data.length);
    expect(outputBytes).toBe(4 * Math.ceil(compressedBytes / 3));
    expect(compressedBytes).toBeLessThan(jsonBytes);
  });

  it('measures without keeping the output', async () => {
    const value = { users: Array.from({ length: 1000 }, (_, i) => ({ name: `u${i}` })) };
    const measured = await measurePayload(value);
    const { data, ...counts } = await payloadToBuffer(value);
    expect(measured).toEqual(counts);
    expect(measured.outputBytes).toBe(data.length);
  });

  it.each([
    { compression: 'gzip', encoding: 'base64' },
    { compression: 'none', encoding: 'binary' },
  ] as const)('stops serializing while nobody reads ($compression, $encoding)', async (options) => {
    let produced = 0;
    let closed = false;
    async function* users(): AsyncGenerator<unknown> {
      try {
        for (let i = 0; i < 40_000; i++) {
          produced++;
          yield await Promise.resolve({ name: `user${i}`, note: noise(i, 1000) });
        }
      } finally {
        closed = true;
      }
    }
    const { stream, counters } = createPayloadStream(
      { users: users() },
      { ...options, chunkSize: 16 * 1024 },
    );
    await untilStalled(() => produced);
    // 40 MB are available; a bounded pipeline holds a few chunks per stage
    expect(counters.jsonBytes).toBeLessThan(4 * 1024 * 1024);
    expect(produced).toBeLessThan(4000);

    const reader = stream[Symbol.asyncIterator]();
    for (let i = 0; i < 5; i++) await reader.next();
    await untilStalled(() => produced);
    expect(produced).toBeLessThan(8000);

    stream.destroy();
    await vi.waitFor(() => expect(closed).toBe(true));
    expect(produced).toBeLessThan(40_000);
  });

  it('fails the stream when the source fails', async () => {
    async function* failing(): AsyncGenerator<unknown> {
      yield await Promise.resolve({ name: 'ok' });
      throw new Error('source system unavailable');
    }
    const { stream } = createPayloadStream({ users: failing() });
    await expect(buffer(stream)).rejects.toThrow('source system unavailable');
  });

  it('fails the stream for a value JSON cannot hold', async () => {
    const { stream } = createPayloadStream({ users: [{ id: 1n }] });
    await expect(buffer(stream)).rejects.toMatchObject({ code: 'PAYLOAD_NOT_SERIALIZABLE' });
  });

  it('rejects invalid options', () => {
    expect(() => createPayloadStream({}, { level: 10 })).toThrow(OaaError);
    expect(() => createPayloadStream({}, { compression: 'gzip', encoding: 'json-string' })).toThrow(
      /uncompressed/,
    );
  });
});
