import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OaaError } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractEmployees } from './extract.js';
import { fixture, testContext } from './private-test-helpers/context.js';
import { violationsOf } from './private-test-helpers/violations.js';

describe('each problem names file:line:column', () => {
  it('a manager who is not in the input', async () => {
    const f = fixture('bad-unknown-manager.csv');
    expect(await violationsOf({ files: f })).toEqual([
      {
        field: `${f}:4:manager`,
        description: 'the manager "99" is not the employee number or work email of any employee in the input',
      },
      {
        field: `${f}:5:manager`,
        description:
          'the manager "nobody@example.com" is not the employee number or work email of any employee in the input',
      },
    ]);
  });

  it('a duplicate employee number, pointing at the first one', async () => {
    const f = fixture('bad-duplicate.csv');
    expect(await violationsOf({ files: f })).toEqual([
      { field: `${f}:4:employee_number`, description: 'the employee number "1" is already used on line 2' },
    ]);
  });

  it('a missing required column, on line 1', async () => {
    const f = fixture('bad-missing-column.csv');
    expect(await violationsOf({ files: f })).toEqual([
      {
        field: `${f}:1:last_name`,
        description: 'the required column "last_name" (last_name) is missing from the header',
      },
    ]);
  });

  it('a bad date', async () => {
    const f = fixture('bad-date.csv');
    expect(await violationsOf({ files: f })).toEqual([
      {
        field: `${f}:2:start_date`,
        description: expect.stringMatching(/^"2020-02-30" is not a date: use YYYY-MM-DD/),
      },
      { field: `${f}:3:date_terminated`, description: expect.stringMatching(/^"next monday" is not a date/) },
    ]);
  });

  it('a bad boolean', async () => {
    const f = fixture('bad-boolean.csv');
    expect(await violationsOf({ files: f })).toEqual([
      {
        field: `${f}:3:active`,
        description: expect.stringMatching(/^"maybe" is not a boolean: use one of true, t, yes/),
      },
    ]);
  });

  it('all problems of a run at once, in file order', async () => {
    const f = fixture('bad-mixed.csv');
    expect(
      (await violationsOf({ files: f })).map((v) => [v.field.slice(f.length + 1), v.description]),
    ).toEqual([
      ['3:active', expect.stringMatching(/^"perhaps" is not a boolean/)],
      ['3:start_date', expect.stringMatching(/^"01\/32\/2020" is not a date/)],
      ['3:manager', expect.stringMatching(/^the manager "42" is not the employee number/)],
      ['4:employee_number', 'the employee number "2" is already used on line 3'],
      ['5:start_date', 'the row has 7 fields, the header has 9'],
      ['6:last_name', expect.stringMatching(/^unexpected text after a closing quote/)],
      ['7:date_terminated', 'a quoted field is not closed before the end of the file'],
      ['7:date_terminated', expect.stringMatching(/^"not closed" is not a date/)],
    ]);
  });
});

describe('more problems', () => {
  let dir: string;
  const file = async (name: string, text: string | Buffer) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csv-hris-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true });
  });

  it('a duplicate across files names the other file', async () => {
    const a = await file('a.csv', 'employee_number,first_name,last_name,active\n1,A,B,yes\n');
    const b = await file('b.csv', 'employee_number,first_name,last_name,active\n2,C,D,yes\n1,E,F,yes\n');
    expect(await violationsOf({ files: [a, b] })).toEqual([
      { field: `${b}:3:employee_number`, description: `the employee number "1" is already used on ${a}:2` },
    ]);
  });

  it('employee numbers differing only in case are duplicates, as the service compares ids without case', async () => {
    const a = await file('a.csv', 'employee_number,first_name,last_name,active\nE1,A,B,yes\ne1,C,D,yes\n');
    expect(await violationsOf({ files: a })).toEqual([
      { field: `${a}:3:employee_number`, description: 'the employee number "e1" is already used on line 2' },
    ]);
  });

  it('header problems: a duplicate column, a configured column that is missing, unusable property names', async () => {
    const a = await file(
      'a.csv',
      'employee_number,first_name,last_name,active,Title,title,2024,Level 1,Level 2\n',
    );
    expect(await violationsOf({ files: a, columns: { company: 'Firm' } })).toEqual([
      { field: `${a}:1:title`, description: 'the column "title" appears twice (columns 5 and 6)' },
      {
        field: `${a}:1:Firm`,
        description: 'the column "Firm", configured for company, is missing from the header',
      },
      {
        field: `${a}:1:2024`,
        description: expect.stringContaining('has no letters to make a custom property name of'),
      },
      {
        field: `${a}:1:Level 2`,
        description:
          'the columns "Level 1" and "Level 2" both become the custom property level: list one in ignoreColumns',
      },
    ]);
  });

  it('an empty employee number, a value over the service limit, invalid UTF-8', async () => {
    const long = 'x'.repeat(300);
    const a = await file(
      'a.csv',
      Buffer.concat([
        Buffer.from(`employee_number,first_name,last_name,active\n,A,B,yes\n2,${long},B,yes\n3,`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(',B,yes\n'),
      ]),
    );
    expect(await violationsOf({ files: a })).toEqual([
      { field: `${a}:2:employee_number`, description: 'the employee number is empty' },
      {
        field: `${a}:3:first_name`,
        description: "the value is longer than 256 bytes (UTF-8), the service's limit",
      },
      {
        field: `${a}:4:first_name`,
        description: expect.stringMatching(
          /^the file is not UTF-8: the byte 0xFF at character 1 of the value/,
        ),
      },
    ]);
  });

  it('a manager email that several employees share', async () => {
    const a = await file(
      'a.csv',
      'employee_number,first_name,last_name,active,work_email,manager\n1,A,B,yes,team@example.com,\n2,C,D,yes,team@example.com,\n3,E,F,yes,e@example.com,Team@example.com\n',
    );
    expect(await violationsOf({ files: a })).toEqual([
      {
        field: `${a}:4:manager`,
        description:
          'the manager "Team@example.com" is the work email of more than one employee: use the employee number',
      },
    ]);
  });

  it('an empty file', async () => {
    const a = await file('a.csv', '');
    expect(await violationsOf({ files: a })).toEqual([
      { field: `${a}:1:*`, description: 'the file is empty: the first line must be the header' },
    ]);
  });

  it('lists at most maxErrors problems, and says how many more there are', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${i},A,B,maybe`).join('\n');
    const a = await file('a.csv', `employee_number,first_name,last_name,active\n${rows}\n`);
    const violations = await violationsOf({ files: a, maxErrors: 5 });
    expect(violations).toHaveLength(6);
    expect(violations[5]).toEqual({
      field: '*',
      description: '25 more problems are not listed (maxErrors is 5)',
    });
  });

  it('a file that cannot be read fails before any reading, naming every such file', async () => {
    const error = await extractEmployees(
      testContext({ files: [join(dir, 'nope.csv'), fixture('employees-good.csv'), join(dir, 'gone.csv')] }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OaaError);
    expect(error).toMatchObject({
      code: 'CSV_FILE_UNREADABLE',
      message: `cannot read ${join(dir, 'nope.csv')} (ENOENT: no such file), ${join(dir, 'gone.csv')} (ENOENT: no such file)`,
    });
  });
});
