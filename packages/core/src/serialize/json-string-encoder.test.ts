import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonStringEncoder } from './json-string-encoder.js';

async function escape(chunks: Buffer[]): Promise<string> {
  return (await buffer(Readable.from(chunks).pipe(new JsonStringEncoder()))).toString('latin1');
}

describe('JsonStringEncoder', () => {
  it('produces ASCII string contents that parse back to the JSON text, across any chunk boundary', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.string({ unit: 'binary' }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (v, s, cuts) => {
          const json = Buffer.from(JSON.stringify([v, s]));
          const offsets = [...new Set(cuts.map((c) => c % (json.length + 1)))].sort((a, b) => a - b);
          const chunks = [...offsets, json.length].map((end, i, all) =>
            json.subarray(i === 0 ? 0 : all[i - 1], end),
          );
          const escaped = await escape(chunks);
          expect(escaped).toMatch(/^[\x20-\x7e]*$/);
          expect(JSON.parse(`"${escaped}"`)).toBe(json.toString('utf8'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('escapes quotes, backslashes and non-ASCII characters', async () => {
    const json = JSON.stringify({ name: 'Zoë "Z" \\ 😀' });
    expect(await escape([Buffer.from(json)])).toBe(
      '{\\"name\\":\\"Zo\\u00eb \\\\\\"Z\\\\\\" \\\\\\\\ \\ud83d\\ude00\\"}',
    );
  });
});
