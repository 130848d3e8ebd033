import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cut } from './cut.js';

async function* from(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) {
    await Promise.resolve();
    yield c;
  }
}

describe('cut', () => {
  it('regroups a stream into full groups and one final group, losing nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 25 }),
        async (chunks, size) => {
          const groups = [];
          for await (const g of cut(from(chunks), size)) groups.push(g);
          const all = Buffer.concat(chunks);
          expect(Buffer.concat(groups.flatMap((g) => g.pieces))).toEqual(all);
          expect(groups.at(-1)?.last).toBe(true);
          for (const g of groups.slice(0, -1)) {
            expect(g.bytes).toBe(size);
            expect(g.last).toBe(false);
          }
          expect(groups.at(-1)!.bytes).toBeLessThanOrEqual(size);
          expect(groups.length).toBe(Math.max(1, Math.ceil(all.length / size)));
        },
      ),
    );
  });
});
