/**
 * Input that is not a CSV file of UTF-8 text. Each case fails the run quickly,
 * with memory bounded by the limits, and names the file (and the line and column where it can).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OaaError, ValidationError } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFiles } from './check.js';
import { extractEmployees } from './extract.js';
import { testContext } from './private-test-helpers/context.js';
import { violationsOf } from './private-test-helpers/violations.js';

const HEADER = 'employee_number,first_name,last_name,active\n';

let dir: string;
const file = async (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
};
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'csv-hris-input-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true });
});

describe('a line or a value over the limit stops the run there, naming the option that raises it', () => {
  it('a value over maxFieldBytes (default 64 KiB), in a file without a line break after it', async () => {
    const a = await file('a.csv', `${HEADER}1,A,B,yes\n2,${'x'.repeat(2 * 1024 * 1024)}`);
    expect(await violationsOf({ files: a })).toEqual([
      {
        field: `${a}:3:first_name`,
        description:
          'the value is longer than 65536 bytes, the limit (raise it with the option maxFieldBytes)',
      },
    ]);
  });

  it('a record over maxRecordBytes (default 1 MiB), listed after the problems of the lines before it', async () => {
    const a = await file('a.csv', `${HEADER}1,A,B,maybe\n2,${'x,'.repeat(600 * 1024)}\n3,C,D,yes\n`);
    expect(await violationsOf({ files: a })).toEqual([
      { field: `${a}:2:active`, description: expect.stringMatching(/^"maybe" is not a boolean/) },
      {
        // The field the limit is crossed in: past the header's columns, so by number.
        field: expect.stringMatching(new RegExp(`^${a.replaceAll('.', '\\.')}:3:#\\d+$`)),
        description: expect.stringMatching(
          /^the record is longer than 1048576 bytes, the limit \(raise it with the option maxRecordBytes\)/,
        ),
      },
    ]);
  });

  it('limits from the config; raised, the same file reads', async () => {
    const a = await file('a.csv', `${HEADER}1,A,${'b'.repeat(150)},yes\n`);
    expect(await violationsOf({ files: a, maxRecordBytes: 100 })).toEqual([
      { field: `${a}:2:active`, description: expect.stringContaining('longer than 100 bytes') },
    ]);
    expect(await violationsOf({ files: a, maxFieldBytes: 100 })).toEqual([
      { field: `${a}:2:last_name`, description: expect.stringContaining('longer than 100 bytes') },
    ]);
    const payload = await extractEmployees(
      testContext({ files: a, maxRecordBytes: 200, maxFieldBytes: 150 }),
    );
    expect(payload.employees).toHaveLength(1);
  });

  it.skipIf(!existsSync('/dev/zero'))(
    '/dev/zero fails on its first chunk (it used to grow until memory ran out)',
    async () => {
      expect(await violationsOf({ files: '/dev/zero' })).toEqual([
        {
          field: '/dev/zero:1:#1',
          description: expect.stringMatching(/^the value holds a NUL byte \(0x00\)/),
        },
      ]);
    },
  );
});

describe('a file that cannot be read, or is not UTF-8 text', () => {
  it('a directory is named, and said to be one', async () => {
    const sub = join(dir, 'exports');
    await mkdir(sub);
    for (const check of [false, true]) {
      const ctx = testContext({ files: [sub] });
      const error = await (check ? checkFiles(ctx) : extractEmployees(ctx)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OaaError);
      expect(error).toMatchObject({
        code: 'CSV_FILE_UNREADABLE',
        message: `cannot read ${sub} (EISDIR: a directory, not a file)`,
      });
    }
  });

  it.skipIf(process.getuid?.() === 0)('a file without read permission is named', async () => {
    const a = await file('a.csv', HEADER);
    await chmod(a, 0o200);
    const error = await extractEmployees(testContext({ files: a })).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CSV_FILE_UNREADABLE',
      message: `cannot read ${a} (EACCES: permission denied)`,
    });
  });

  it('a UTF-16 file (as spreadsheet programs save "Unicode text") is said to be one, by extract and check', async () => {
    const text = `${HEADER}1,Ann,Lee,yes\n`;
    const le = await file('le.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const be = await file('be.csv', Buffer.from(text, 'utf16le').swap16());
    expect(await violationsOf({ files: le })).toEqual([
      {
        field: `${le}:1:*`,
        description:
          'the file is not UTF-8: it is UTF-16 (little-endian; it starts with a UTF-16 byte order mark); re-save it as UTF-8 (e.g. "CSV UTF-8" in a spreadsheet program)',
      },
    ]);
    expect(await violationsOf({ files: be })).toEqual([
      {
        field: `${be}:1:*`,
        description: expect.stringMatching(/^the file is not UTF-8: it is UTF-16 \(big-endian/),
      },
    ]);
    const error = await checkFiles(testContext({ files: [le, be] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).violations.map((v) => v.field)).toEqual([`${le}:1:*`, `${be}:1:*`]);
  });

  it('a file that is not UTF-8: the first bad value at file:line:column, with the character', async () => {
    const a = await file(
      'a.csv',
      Buffer.concat([Buffer.from(`${HEADER}1,Ann,Lee,yes\n2,Ren`), Buffer.from('ée,Dupré,yes\n', 'latin1')]),
    );
    expect(await violationsOf({ files: a })).toEqual([
      {
        field: `${a}:3:first_name`,
        description:
          'the file is not UTF-8: the byte 0xE9 at character 4 of the value is not valid UTF-8 (the file may be Windows-1252 or Latin-1); re-save it as UTF-8. Later values of the file that are not UTF-8 are not listed',
      },
    ]);
  });

  it('a NUL byte in a value, at file:line:column', async () => {
    const a = await file('a.csv', `${HEADER}1,Ann,Lee,yes\n2,Bo,Le\0e,yes\n3,Cy,Ma,maybe\n`);
    expect(await violationsOf({ files: a })).toEqual([
      {
        field: `${a}:3:last_name`,
        description:
          'the value holds a NUL byte (0x00), which a text file does not: the file may be binary, or UTF-16 or UTF-32 text; a CSV file must be UTF-8 text',
      },
    ]);
  });
});
