import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Length, base64Pieces, envelope, jsonStringPieces } from './body.js';

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out;
}

/** Any Unicode text (code points, no lone surrogates), cheaper to generate than fast-check's binary strings. */
const unicodeText = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0xd7ff }),
      fc.integer({ min: 0xe000, max: 0x10ffff }),
    ),
    { maxLength: 40 },
  )
  .map((cps) => String.fromCodePoint(...cps));

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('streamed bodies', () => {
  it('base64 of pieces equals base64 of their concatenation, wherever the pieces are cut', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        const got = [...base64Pieces(splitAt(bytes, cuts))].join('');
        expect(got).toBe(Buffer.from(bytes).toString('base64'));
        expect(got.length).toBe(base64Length(bytes.length));
      }),
    );
  });

  it('escapes JSON text into a string literal that parses back to the text, ASCII only', () => {
    fc.assert(
      fc.property(unicodeText, fc.array(fc.nat(), { maxLength: 6 }), (s, cuts) => {
        const escaped = [...jsonStringPieces(splitAt(Buffer.from(s, 'utf8'), cuts))].join('');
        expect(escaped).toMatch(/^[\x20-\x7e]*$/);
        expect(JSON.parse(`"${escaped}"`)).toBe(s);
      }),
    );
  });

  it('builds a JSON object around the streamed field, afresh on each call', async () => {
    const make = envelope({ id: 'p', n: 3, skip: undefined }, 'data', () =>
      base64Pieces([Buffer.from('hello')]),
    );
    const expected = { id: 'p', n: 3, data: Buffer.from('hello').toString('base64') };
    expect(JSON.parse(await text(make()))).toEqual(expected);
    expect(JSON.parse(await text(make()))).toEqual(expected);
    expect(JSON.parse(await text(envelope({}, 'x', () => ['a'])()))).toEqual({ x: 'a' });
  });
});
