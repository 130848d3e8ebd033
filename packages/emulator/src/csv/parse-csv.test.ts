import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './parse-csv.js';

describe('parseCsv', () => {
  it('splits records and fields, with CRLF, LF and a BOM', () => {
    expect(parseCsv('\ufeffa,b\r\n1,2\n3,4')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      { line: 3, fields: ['3', '4'] },
    ]);
  });

  it('handles quoted fields with delimiters, doubled quotes and line breaks, numbering lines', () => {
    expect(parseCsv('name,note\n"Doe, Jane","say ""hi""\r\nsecond line"\nbob,""\n')).toEqual([
      { line: 1, fields: ['name', 'note'] },
      { line: 2, fields: ['Doe, Jane', 'say "hi"\r\nsecond line'] },
      { line: 4, fields: ['bob', ''] },
    ]);
  });

  it('skips blank lines, keeps empty trailing fields, and takes another delimiter', () => {
    expect(parseCsv('a;b\n\n1;\n')).toEqual([
      { line: 1, fields: ['a;b'] },
      { line: 3, fields: ['1;'] },
    ]);
    expect(parseCsv('a;b\n\n1;\n', ';')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['1', ''] },
    ]);
  });

  it.each([
    ['a,"b\n1,2', 1, 'not closed'],
    ['a,b\n1,x"y"', 2, 'double quote inside an unquoted field'],
    ['a,b\n"1"x,2', 2, 'after a closing quote'],
  ])('reports %j at line %i', (text, line, message) => {
    try {
      parseCsv(text);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CsvSyntaxError);
      expect((err as CsvSyntaxError).line).toBe(line);
      expect((err as Error).message).toContain(message);
    }
  });
});
