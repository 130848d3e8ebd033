import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvParser, type CsvRecord } from './csv-parser.js';

/** Parses `input` fed in chunks cut at `cuts` (byte offsets). */
function parse(input: string | Buffer, options: { delimiter?: string; cuts?: number[] } = {}) {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  const parser = new CsvParser(options.delimiter === undefined ? {} : { delimiter: options.delimiter });
  const records: CsvRecord[] = [];
  let at = 0;
  for (const cut of [...(options.cuts ?? []), bytes.length]) {
    records.push(...parser.push(bytes.subarray(at, cut)));
    at = cut;
  }
  records.push(...parser.end());
  return { records, problems: parser.problems };
}

const fieldsOf = (input: string, options?: { delimiter?: string; cuts?: number[] }) =>
  parse(input, options).records.map((r) => r.fields);

describe('CsvParser', () => {
  it('reads quoted fields with delimiters, escaped quotes and line breaks inside', () => {
    expect(fieldsOf('a,"b,c","say ""hi""","two\r\nlines"\r\nd,e,f,g\r\n')).toEqual([
      ['a', 'b,c', 'say "hi"', 'two\r\nlines'],
      ['d', 'e', 'f', 'g'],
    ]);
  });

  it('gives each record the line it starts on, counting line breaks inside quotes', () => {
    const { records } = parse('h1,h2\n"x\ny",1\n\nz,2');
    expect(records.map((r) => r.line)).toEqual([1, 2, 5]);
  });

  it('skips a UTF-8 byte order mark, even when it is split across chunks', () => {
    const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('"id",name\n1,Jürgen\n')]);
    for (const cuts of [[], [1], [2], [1, 2], [3]]) {
      expect(parse(input, { cuts }).records.map((r) => r.fields)).toEqual([
        ['id', 'name'],
        ['1', 'Jürgen'],
      ]);
    }
  });

  it('accepts CRLF, LF and a missing final line break alike, and a CRLF split between chunks', () => {
    expect(fieldsOf('a,b\r\nc,d\r\n', { cuts: [4] })).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(fieldsOf('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(fieldsOf('a,b\r\n"c"\r\n', { cuts: [9] })).toEqual([['a', 'b'], ['c']]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(fieldsOf(',x,\n"",,""\n')).toEqual([
      ['', 'x', ''],
      ['', '', ''],
    ]);
  });

  it('takes another delimiter, and then a comma is plain text', () => {
    expect(fieldsOf('a;"b;c";d,e\n', { delimiter: ';' })).toEqual([['a', 'b;c', 'd,e']]);
    expect(fieldsOf('a\tb\n', { delimiter: '\t' })).toEqual([['a', 'b']]);
  });

  it('reports a quoted field left open at the end of the input, on the line it starts', () => {
    const { records, problems } = parse('a,b\n1,"open\nstill open\n');
    expect(records.at(-1)!.fields).toEqual(['1', 'open\nstill open\n']);
    expect(problems).toEqual([{ line: 2, fieldIndex: 1, message: expect.stringContaining('not closed') }]);
  });

  it('reports text after a closing quote and keeps it', () => {
    const { records, problems } = parse('a,"b"x,c\n');
    expect(records[0]!.fields).toEqual(['a', 'bx', 'c']);
    expect(problems).toEqual([
      { line: 1, fieldIndex: 1, message: expect.stringContaining('after a closing quote') },
    ]);
  });

  it('reports a value that is not valid UTF-8', () => {
    const { problems } = parse(
      Buffer.concat([Buffer.from('a,b\n1,'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]),
    );
    expect(problems).toEqual([
      { line: 2, fieldIndex: 1, message: expect.stringContaining('not valid UTF-8') },
    ]);
  });

  it('refuses a delimiter that cannot work', () => {
    for (const d of ['"', '\n', '', ';;', 'é'])
      expect(() => new CsvParser({ delimiter: d })).toThrow(RangeError);
  });

  it('reads back whatever an RFC 4180 writer wrote, however the bytes are cut into chunks', () => {
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('"', ',', ';', '\r', '\n', '\r\n', ' ', 'a', 'é', '😀'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      ),
      maxLength: 8,
    });
    // A record of one empty field is a blank line, which the parser skips.
    const record = fc
      .array(text, { minLength: 1, maxLength: 5 })
      .filter((r) => !(r.length === 1 && r[0] === ''));
    const input = fc.record({
      records: fc.array(record, { minLength: 1, maxLength: 6 }),
      delimiter: fc.constantFrom(',', ';', '\t'),
      crlf: fc.boolean(),
      bom: fc.boolean(),
      finalBreak: fc.boolean(),
      quoteAll: fc.boolean(),
    });
    fc.assert(
      fc.property(input, fc.array(fc.nat(), { maxLength: 6 }), (p, rawCuts) => {
        const eol = p.crlf ? '\r\n' : '\n';
        const quote = (f: string) =>
          p.quoteAll || f.includes(p.delimiter) || /["\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f;
        const lines = p.records.map((r) => r.map(quote).join(p.delimiter));
        const text = (p.bom ? '\uFEFF' : '') + lines.join(eol) + (p.finalBreak ? eol : '');
        const bytes = Buffer.from(text);
        const cuts = [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        // Expected start lines: 1 + the line feeds before each record.
        let offset = p.bom ? 1 : 0;
        const starts = lines.map((l) => {
          const line = 1 + (text.slice(0, offset).match(/\n/g)?.length ?? 0);
          offset += l.length + eol.length;
          return line;
        });
        const { records, problems } = parse(bytes, { delimiter: p.delimiter, cuts });
        expect(problems).toEqual([]);
        expect(records.map((r) => r.fields)).toEqual(p.records);
        expect(records.map((r) => r.line)).toEqual(starts);
      }),
      { numRuns: 500 },
    );
  });
});
