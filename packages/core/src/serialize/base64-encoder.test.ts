import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Base64Encoder } from './base64-encoder.js';

/** Splits `bytes` at the given offsets (sorted, deduplicated) into consecutive chunks. */
function split(bytes: Uint8Array, cuts: number[]): Buffer[] {
  const offsets = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const end of [...offsets, bytes.length]) {
    chunks.push(Buffer.from(bytes.subarray(start, end)));
    start = end;
  }
  return chunks;
}

async function encode(chunks: Buffer[]): Promise<{ text: string; encoder: Base64Encoder }> {
  const encoder = new Base64Encoder();
  const out = buffer(Readable.from(chunks).pipe(encoder));
  return { text: (await out).toString('latin1'), encoder };
}

describe('Base64Encoder', () => {
  it('equals one-shot base64 whatever the chunk boundaries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (bytes, cuts) => {
          const { text, encoder } = await encode(split(bytes, cuts));
          expect(text).toBe(Buffer.from(bytes).toString('base64'));
          expect(Buffer.from(text, 'base64').equals(Buffer.from(bytes))).toBe(true);
          expect(encoder.bytesIn).toBe(bytes.length);
          expect(encoder.bytesOut).toBe(text.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('handles every length 0..10 in one-byte chunks', async () => {
    for (let n = 0; n <= 10; n++) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 97 + 13) & 0xff));
      const { text } = await encode([...bytes].map((b) => Buffer.from([b])));
      expect(text).toBe(bytes.toString('base64'));
    }
  });

  it('encodes a large input spread over many uneven chunks', async () => {
    const bytes = Buffer.alloc(1_000_001);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    const chunks: Buffer[] = [];
    for (let start = 0, size = 1; start < bytes.length; start += size, size = (size * 5 + 3) % 65_537) {
      chunks.push(bytes.subarray(start, start + size));
    }
    const { text } = await encode(chunks);
    expect(Buffer.from(text, 'base64').equals(bytes)).toBe(true);
    expect(text).toBe(bytes.toString('base64'));
  });
});
