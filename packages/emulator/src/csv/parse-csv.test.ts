import { describe, expect, it } from 'vitest';
import { MAX_CSV_RECORD_BYTES } from '../push/limits.js';
import { CsvSyntaxError, readCsvRecords, type CsvRecord } from './parse-csv.js';

/** Every record of `text`, fed to the parser in pieces of `pieceSize` characters. */
async function parse(text: string, delimiter = ',', pieceSize = 3): Promise<CsvRecord[]> {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += pieceSize) pieces.push(text.slice(i, i + pieceSize));
  const out: CsvRecord[] = [];
  for await (const record of readCsvRecords(pieces, delimiter)) out.push(record);
  return out;
}

describe('readCsvRecords', () => {
  it('splits records and fields, with CRLF, LF and a BOM', async () => {
    expect(await parse('\ufeffa,b\r\n1,2\n3,4')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      { line: 3, fields: ['3', '4'] },
    ]);
  });

  it('handles quoted fields with delimiters, doubled quotes and line breaks, numbering lines', async () => {
    expect(await parse('name,note\n"Doe, Jane","say ""hi""\r\nsecond line"\nbob,""\n')).toEqual([
      { line: 1, fields: ['name', 'note'] },
      { line: 2, fields: ['Doe, Jane', 'say "hi"\r\nsecond line'] },
      { line: 4, fields: ['bob', ''] },
    ]);
    expect(await parse('a\r"x\ry\n\nz"\r\n\r\nb\r')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: ['x\ry\n\nz'] },
      { line: 7, fields: ['b'] },
    ]);
  });

  it('skips blank lines, keeps empty trailing fields, and takes another delimiter', async () => {
    expect(await parse('a;b\n\n1;\n')).toEqual([
      { line: 1, fields: ['a;b'] },
      { line: 3, fields: ['1;'] },
    ]);
    expect(await parse('a;b\n\n1;\n', ';')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['1', ''] },
    ]);
  });

  it.each([
    ['an unclosed quote', 'a,"b\n1,2', 1, 'not closed'],
    ['a quote in an unquoted field', 'a,b\n1,x"y"', 2, 'double quote inside an unquoted field'],
    ['text after a closing quote', 'a,b\n"1"x,2', 2, 'after a closing quote'],
    ['an error after blank lines', 'a,b\n\n\n"1"x,2', 4, 'after a closing quote'],
    ['an error after a CRLF in quotes', 'a,b\r\n"1\r\n2",3\r\n"1"x,2', 4, 'after a closing quote'],
    [
      'a record too long',
      `a,b\n1,"${'x'.repeat(MAX_CSV_RECORD_BYTES + 10)}`,
      2,
      `longer than ${MAX_CSV_RECORD_BYTES} bytes`,
    ],
  ])('reports %s at the line the record starts on', async (_what, text, line, message) => {
    const err: unknown = await parse(text, ',', 64 * 1024).then(
      () => expect.unreachable(),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CsvSyntaxError);
    expect((err as CsvSyntaxError).line).toBe(line);
    expect((err as Error).message).toContain(message);
  });
});
