/**
 * The parser holds a bounded amount of input, and says when a file is not UTF-8. Without limits its
 * memory grew without bound on a long line (a 400 MB file without a line break peaked at 3.2 GB,
 * `/dev/zero` grew until the machine ran out), and a file that is not UTF-8 was not said to be so.
 */
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvInputError } from './csv-input-error.js';
import type { CsvParserOptions } from './csv-options.js';
import { CsvParser, type CsvRecord } from './csv-parser.js';
import { firstInvalidUtf8 } from './encoding.js';

/**
 * Feeds `chunk()` to a parser until it refuses the input (or `maxBytes` were fed, which fails the
 * test): how many bytes it took, the records before the refusal, and the refusal.
 */
function feedUntilRefused(options: CsvParserOptions, first: string, chunk: () => Buffer, maxBytes = 1 << 24) {
  const parser = new CsvParser(options);
  const records: CsvRecord[] = [];
  let fed = 0;
  let next: Buffer = Buffer.from(first);
  while (fed < maxBytes) {
    records.push(...parser.push(next));
    fed += next.length;
    if (parser.refused) break;
    next = chunk();
  }
  const refusal = parser.refused;
  expect(refusal).toBeInstanceOf(CsvInputError);
  // A refused parser cannot go on: every later call says why.
  expect(() => parser.push(Buffer.from('a\n'))).toThrow(refusal);
  expect(() => parser.end()).toThrow(refusal);
  return { fed, records, refusal: refusal! };
}

/** What `input`, cut into chunks at `cuts`, makes the parser refuse. */
function refusalOf(input: Buffer | string, options: CsvParserOptions = {}, cuts: number[] = []) {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  const parser = new CsvParser(options);
  const records: CsvRecord[] = [];
  let at = 0;
  try {
    for (const cut of [...cuts, bytes.length]) {
      records.push(...parser.push(bytes.subarray(at, cut)));
      at = cut;
    }
    records.push(...parser.end());
  } catch (error) {
    expect(error).toBe(parser.refused);
  }
  const refusal = parser.refused;
  expect(refusal, 'the input should be refused').toBeInstanceOf(CsvInputError);
  return { records: records.map((r) => r.fields), refusal: refusal!, problems: parser.problems };
}

describe('the parser holds a bounded amount of input', () => {
  it('stops at a value over maxFieldBytes as soon as the limit is crossed, reading no further', () => {
    const chunk = Buffer.alloc(100, 'x');
    const { fed, records, refusal } = feedUntilRefused({ maxFieldBytes: 1000 }, 'a,b\n1,', () => chunk);
    expect(fed).toBeLessThanOrEqual(6 + 1000 + chunk.length);
    expect(records.map((r) => r.fields)).toEqual([['a', 'b']]);
    expect(refusal).toMatchObject({ line: 2, fieldIndex: 1, code: 'CSV_INPUT_REFUSED' });
    expect(refusal.description).toBe(
      'the value is longer than 1000 bytes, the limit (raise it with the option maxFieldBytes)',
    );
    expect(refusal.message).toBe(`line 2, field 2: ${refusal.description}`);
  });

  it('stops at a record over maxRecordBytes as soon as the limit is crossed, however short its values', () => {
    const chunk = Buffer.from('xy,'.repeat(40));
    const { fed, refusal } = feedUntilRefused({ maxRecordBytes: 1000 }, '', () => chunk);
    expect(fed).toBeLessThanOrEqual(1000 + chunk.length);
    expect(refusal).toMatchObject({ line: 1 });
    expect(refusal.description).toMatch(
      /^the record is longer than 1000 bytes, the limit \(raise it with the option maxRecordBytes\)/,
    );
  });

  it('has default limits of 64 KiB a value and 1 MiB a record', () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const field = feedUntilRefused({}, '', () => chunk);
    expect(field.fed).toBe(2 * chunk.length);
    expect(field.refusal.description).toMatch(/^the value is longer than 65536 bytes/);
    const wide = Buffer.from('x,'.repeat(32 * 1024));
    const record = feedUntilRefused({}, '', () => wide);
    expect(record.fed).toBe(1024 * 1024 + wide.length);
    expect(record.refusal.description).toMatch(/^the record is longer than 1048576 bytes/);
  });

  it('refuses a record over the limit wherever the chunks are cut, returning the records before it', () => {
    const input = `a,b\n${'x'.repeat(700)},${'y'.repeat(700)}\nc,d\n`;
    for (const cuts of [[], [3], [4], [500], [720], [1404], [1405]]) {
      const { records, refusal } = refusalOf(input, { maxRecordBytes: 1000 }, cuts);
      expect(records, `cuts ${cuts.join()}`).toEqual([['a', 'b']]);
      expect(refusal, `cuts ${cuts.join()}`).toMatchObject({ line: 2 });
      expect(refusal.description).toContain('maxRecordBytes');
    }
    // Line breaks inside quotes count, and the record is named by the line it starts on.
    const quoted = refusalOf(`a\n"${'x\n'.repeat(600)}"\n`, { maxRecordBytes: 1000, maxFieldBytes: 5000 });
    expect(quoted.refusal).toMatchObject({ line: 2, fieldIndex: 0 });
  });

  it('says a quoted value over the limit may lack its closing quote, and where it starts', () => {
    const { refusal } = refusalOf(`a,b\n1,"open\n${'x,y\n'.repeat(500)}`, { maxFieldBytes: 1000 });
    expect(refusal).toMatchObject({ line: 2, fieldIndex: 1 });
    expect(refusal.description).toContain(
      'it starts with a quote on line 2: if its closing quote is missing, the rest of the file is read as this one value',
    );
  });

  it('refuses limits that cannot work', () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new CsvParser({ maxFieldBytes: bad })).toThrow(/maxFieldBytes must be a positive integer/);
    expect(() => new CsvParser({ maxRecordBytes: 0 })).toThrow(RangeError);
  });
});

describe('a NUL byte or a file that is not UTF-8', () => {
  it('refuses a NUL byte in a value, at its line and field, after the records before it', () => {
    for (const cuts of [[], [9], [11]]) {
      const { records, refusal } = refusalOf('a,b\n1,2\n3,x\0y\n4,5\n', {}, cuts);
      expect(records).toEqual([
        ['a', 'b'],
        ['1', '2'],
      ]);
      expect(refusal).toMatchObject({ line: 3, fieldIndex: 1 });
      expect(refusal.description).toMatch(/^the value holds a NUL byte \(0x00\)/);
    }
  });

  it('refuses a stream of zero bytes (/dev/zero) on its first chunk', () => {
    const zeros = Buffer.alloc(64 * 1024);
    const { fed, refusal } = feedUntilRefused({}, '', () => zeros);
    expect(fed).toBe(zeros.length);
    expect(refusal).toMatchObject({ line: 1, fieldIndex: 0 });
    expect(refusal.message).toMatch(/^line 1, field 1: the value holds a NUL byte/);
  });

  it('says a UTF-16 file is not UTF-8, with a byte order mark or without', () => {
    const text = 'employee_number,first_name\n1,Ann\n';
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    const cases: [Buffer, RegExp][] = [
      [
        Buffer.concat([Buffer.from([0xff, 0xfe]), le]),
        /UTF-16 \(little-endian; it starts with a UTF-16 byte order mark\)/,
      ],
      [
        Buffer.concat([Buffer.from([0xfe, 0xff]), be]),
        /UTF-16 \(big-endian; it starts with a UTF-16 byte order mark\)/,
      ],
      [le, /UTF-16 \(little-endian; every other byte is zero\)/],
      [be, /UTF-16 \(big-endian; every other byte is zero\)/],
      [Buffer.from([0xff, 0xfe]), /UTF-16 \(little-endian/],
    ];
    for (const [input, kind] of cases) {
      for (const cuts of [[], [1], [2, 3]]) {
        const { records, refusal } = refusalOf(
          input,
          {},
          cuts.filter((c) => c < input.length),
        );
        expect(records).toEqual([]);
        expect(refusal).toMatchObject({ line: 1, fieldIndex: undefined });
        expect(refusal.description).toMatch(/^the file is not UTF-8: it is UTF-16 /);
        expect(refusal.description).toMatch(kind);
        expect(refusal.description).toContain('re-save it as UTF-8');
      }
    }
  });

  it('reports the first value that is not UTF-8, at the character where it goes wrong, and only that one', () => {
    const latin1 = Buffer.from('name,city\nJosé,Málaga\nFrançois,Besançon\n', 'latin1');
    const parser = new CsvParser();
    const records = [...parser.push(latin1), ...parser.end()];
    expect(records).toHaveLength(3);
    expect(parser.problems).toEqual([
      {
        line: 2,
        fieldIndex: 0,
        message:
          'the file is not UTF-8: the byte 0xE9 at character 4 of the value is not valid UTF-8 (the file may be Windows-1252 or Latin-1); re-save it as UTF-8. Later values of the file that are not UTF-8 are not listed',
      },
    ]);
  });
});

describe('firstInvalidUtf8', () => {
  const at = (...bytes: number[]) => firstInvalidUtf8(Uint8Array.from(bytes), 0, bytes.length);

  it('finds overlong forms, surrogates, code points past U+10FFFF and cut sequences', () => {
    expect(at(0x41, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80)).toBe(-1);
    expect(at(0x41, 0xc0, 0x80)).toBe(1);
    expect(at(0xe0, 0x80, 0x80)).toBe(0);
    expect(at(0x41, 0xed, 0xa0, 0x80)).toBe(1);
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0);
    expect(at(0x41, 0x42, 0xe2, 0x82)).toBe(2);
    expect(at(0x80)).toBe(0);
  });

  it('agrees with Node: -1 exactly for valid UTF-8, and the bytes before the index are valid', () => {
    // UTF-8 text, the same with one byte changed or cut short, and random bytes.
    const text = fc
      .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 5 })
      .map((cps) => Uint8Array.from(Buffer.from(String.fromCodePoint(...cps))));
    const bytes = fc.oneof(
      text,
      fc.tuple(text, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([b, at, value]) => {
        const changed = Uint8Array.from(b);
        if (changed.length > 0) changed[at % changed.length] = value;
        return changed;
      }),
      fc.tuple(text, fc.nat()).map(([b, cut]) => b.subarray(0, cut % (b.length + 1))),
      fc.uint8Array({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const i = firstInvalidUtf8(b, 0, b.length);
        expect(i === -1).toBe(isUtf8(b));
        if (i !== -1) expect(isUtf8(b.subarray(0, i))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
