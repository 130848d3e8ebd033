/**
 * A `:push` body read as it arrives: json_data is taken out (unescaped, base64-decoded) and a token
 * stands in its place, whatever pieces the body arrives in; the rest of the body is unchanged.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PushBodyStream, type Diverted } from './push-body.js';
import { cut } from '../private-test-helpers/cut-bytes.js';

async function through(pieces: Buffer[]): Promise<{ body: unknown; diverted: Diverted | undefined }> {
  let diverted: Diverted | undefined;
  const stream = new PushBodyStream((d) => (diverted = d), 100 * 1024 * 1024);
  const out: Buffer[] = [];
  Readable.from(pieces).pipe(stream);
  for await (const b of stream) out.push(b as Buffer);
  return { body: JSON.parse(Buffer.concat(out).toString()), diverted };
}

describe('PushBodyStream', () => {
  it('takes a plain JSON payload out, escapes undone, in any pieces', async () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '"', '\\', '/', 'é', '😀', '\n', '\u0001', '\ud800', '{'),
    });
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), async (t, at, ascii) => {
        const jsonData = `{"x": ${JSON.stringify(t)}}`;
        let raw = JSON.stringify({ id: 'p', json_data: jsonData, compression_type: 'NONE' });
        // JSON.stringify leaves non-ASCII as is; \\u escapes of it must give the same bytes.
        if (ascii)
          raw = raw.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        const { body, diverted } = await through(cut(Buffer.from(raw), at));
        expect(diverted).toBeDefined();
        expect(body).toEqual({ id: 'p', json_data: diverted!.token, compression_type: 'NONE' });
        expect(diverted!.data).toEqual({ kind: 'plain', bytes: Buffer.from(jsonData) });
      }),
      { numRuns: 200 },
    );
  });

  it('decodes base64 as it comes: escaped slashes, line breaks, URL alphabet', async () => {
    const bytes = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 256));
    const b64 = bytes.toString('base64');
    const wrapped = b64.replace(/(.{76})/g, '$1\n').replaceAll('/', '\\/');
    const raw = `{"json_data":"${wrapped.replaceAll('\n', '\\n')}","compression_type":"GZIP","id":"p"}`;
    for (const at of [[], [1, 2, 3, 100, 101, 4000], [17, 18, 19, 20, 21, 22, 87_381, 87_382]]) {
      const { body, diverted } = await through(cut(Buffer.from(raw), at));
      expect(diverted!.data).toEqual({ kind: 'base64', bytes });
      expect(body).toEqual({ json_data: diverted!.token, compression_type: 'GZIP', id: 'p' });
    }
    const url = bytes.toString('base64url');
    const { diverted } = await through([Buffer.from(`{"json_data":"${url}"}`)]);
    expect(diverted!.data).toEqual({ kind: 'base64', bytes });
  });

  it('marks text that is not base64, and leaves an empty json_data and nested keys alone', async () => {
    expect((await through([Buffer.from('{"json_data":"not base64!"}')])).diverted!.data).toEqual({
      kind: 'not base64',
    });
    const empty = await through([Buffer.from('{"json_data":"","id":"p"}')]);
    expect(empty).toEqual({ body: { json_data: '', id: 'p' }, diverted: undefined });
    const nested = await through([Buffer.from('{"x":{"json_data":"abc"},"y":["json_data","z"]}')]);
    expect(nested).toEqual({ body: { x: { json_data: 'abc' }, y: ['json_data', 'z'] }, diverted: undefined });
  });
});
