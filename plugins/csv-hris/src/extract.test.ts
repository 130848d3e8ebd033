import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { digest, validate, type HrisPayload } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractEmployees } from './extract.js';
import { fixture, testContext } from './private-test-helpers/context.js';

const employee = (p: HrisPayload, number: string) => {
  const e = p.employees?.find((x) => x.employee_number === number);
  if (!e) throw new Error(`no employee ${number}`);
  return e;
};
const group = (p: HrisPayload, id: string) => p.groups?.find((g) => g.id === id);

describe('a typical HR export (BOM, CRLF, quoted fields)', () => {
  let payload: HrisPayload;
  beforeEach(async () => {
    payload = await extractEmployees(
      testContext({ files: fixture('employees-good.csv'), system: { id: 'acme-hr', name: 'Acme HR' } }),
    );
  });

  it('is a valid hris payload', () => {
    expect(validate('hris', payload)).toEqual({ errors: [], warnings: [] });
    expect(payload).toMatchObject({
      name: 'Acme HR',
      hris_type: 'csv_hris',
      system: { id: 'acme-hr', name: 'Acme HR' },
    });
    expect(payload.employees).toHaveLength(5);
  });

  it('is the same payload on every run, as it is after a round trip through JSON (no needless push)', async () => {
    const again = await extractEmployees(
      testContext({ files: fixture('employees-good.csv'), system: { id: 'acme-hr', name: 'Acme HR' } }),
    );
    expect(digest('hris', again)).toBe(digest('hris', payload));
    expect(digest('hris', JSON.parse(JSON.stringify(payload)) as HrisPayload)).toBe(digest('hris', payload));
  });

  it('maps the common columns to the employee fields', () => {
    expect(employee(payload, '1001')).toMatchObject({
      id: '1001',
      name: 'Alice Smith',
      display_full_name: 'Alice Smith',
      first_name: 'Alice',
      last_name: 'Smith',
      preferred_name: 'Ali',
      username: 'asmith',
      email: 'alice.smith@example.com',
      personal_email: 'alice@home.example',
      idp_id: '00u1001',
      company: 'Acme Inc.',
      job_title: 'Chief Executive Officer, Founder',
      work_location: 'Berlin, DE',
      employment_status: 'Active',
      is_active: true,
      employment_types: ['FULL_TIME'],
    });
  });

  it('keeps quotes and line breaks written inside quoted fields', () => {
    expect(employee(payload, '1002').name).toBe('Bob "Bobby" Jones');
    expect(employee(payload, '1003').job_title).toBe('Engineer,\r\nPlatform team');
  });

  it('names an employee without a display name by first and last name', () => {
    expect(employee(payload, '1004')).toMatchObject({
      name: 'Dan Lee',
      is_active: false,
      employment_status: 'Terminated',
    });
    expect(employee(payload, '1004').display_full_name).toBeUndefined();
  });

  it('links managers by employee number, by work email in any case, and ahead of their own row', () => {
    expect(employee(payload, '1001').managers).toBeUndefined();
    expect(employee(payload, '1002').managers).toEqual([{ id: '1001' }]);
    expect(employee(payload, '1003').managers).toEqual([{ id: '1002' }]); // BOB.JONES@example.com
    expect(employee(payload, '1004').managers).toEqual([{ id: '1005' }]); // 1005 comes on a later line
    expect(employee(payload, '1005').managers).toEqual([{ id: '1001' }]);
  });

  it('makes departments and cost centers groups that employees reference', () => {
    expect(employee(payload, '1003')).toMatchObject({
      department: { id: 'department:Engineering' },
      cost_center: { id: 'cost_center:CC-200' },
    });
    expect(group(payload, 'department:Engineering')).toEqual({
      id: 'department:Engineering',
      name: 'Engineering',
      group_type: 'Department',
    });
    expect(group(payload, 'cost_center:CC-200')).toEqual({
      id: 'cost_center:CC-200',
      name: 'CC-200',
      group_type: 'Cost Center',
    });
    expect(payload.groups).toHaveLength(6);
  });

  it('normalizes dates to RFC 3339', () => {
    expect(employee(payload, '1001').start_date).toBe('2015-03-01T00:00:00Z');
    expect(employee(payload, '1002').start_date).toBe('2016-07-15T00:00:00Z');
    expect(employee(payload, '1003').start_date).toBe('2020-03-04T00:00:00Z');
    expect(employee(payload, '1004')).toMatchObject({
      start_date: '2019-01-07T09:30:00+01:00',
      termination_date: '2023-12-31T00:00:00Z',
    });
    expect(employee(payload, '1005').start_date).toBe('2018-05-20T08:00:00Z');
  });

  it('turns other columns into declared string custom properties', () => {
    expect(payload.custom_property_definition).toEqual({
      employee_properties: { badge_id: 'STRING', shirt_size: 'STRING' },
    });
    expect(employee(payload, '1001').custom_properties).toEqual({ badge_id: 'B-1', shirt_size: 'M' });
    expect(employee(payload, '1003').custom_properties).toEqual({ shirt_size: 'S' });
    expect(employee(payload, '1004').employment_types).toEqual(['PART_TIME', 'INTERN']);
  });
});

describe('config', () => {
  it('reads a semicolon-delimited export with its own headers, day-first dates and boolean words', async () => {
    const payload = await extractEmployees(
      testContext({
        files: [fixture('employees-semicolon.csv')],
        delimiter: ';',
        dateFormat: 'DMY',
        booleanWords: { true: ['ja'], false: ['nein'] },
        columns: { employment_status: 'Status', job_title: 'Job', cost_center: 'Kostenstelle' },
      }),
    );
    expect(validate('hris', payload).errors).toEqual([]);
    expect(employee(payload, '7')).toMatchObject({
      first_name: 'Jürgen',
      last_name: 'Müller',
      job_title: 'Leiter; Vertrieb',
      start_date: '2019-12-31T00:00:00Z',
      is_active: true,
    });
    expect(employee(payload, '9')).toMatchObject({
      is_active: false,
      termination_date: '2023-06-30T00:00:00Z',
      managers: [{ id: '7' }],
      cost_center: { id: 'cost_center:4712' },
    });
    expect(payload.custom_property_definition).toBeUndefined();
  });

  it('ignores a column mapped to null or listed in ignoreColumns, instead of making it a custom property', async () => {
    const payload = await extractEmployees(
      testContext({
        files: fixture('employees-good.csv'),
        columns: { company: null },
        ignoreColumns: ['Shirt Size'],
      }),
    );
    expect(payload.custom_property_definition).toEqual({
      employee_properties: { badge_id: 'STRING', company: 'STRING' },
    });
    expect(employee(payload, '1001')).toMatchObject({
      company: undefined,
      custom_properties: { badge_id: 'B-1', company: 'Acme Inc.' },
    });
  });

  it('derives is_active from the employment status when there is no active column, and the reverse', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'csv-hris-'));
    try {
      await writeFile(
        join(dir, 'status.csv'),
        'employee_number,first_name,last_name,employment_status\n1,A,B,Active\n2,C,D,Terminated\n',
      );
      await writeFile(
        join(dir, 'active.csv'),
        'employee_number,first_name,last_name,active\n3,E,F,yes\n4,G,H,no\n',
      );
      const payload = await extractEmployees(
        testContext({ files: [join(dir, 'status.csv'), join(dir, 'active.csv')] }),
      );
      expect(payload.employees?.map((e) => [e.employee_number, e.employment_status, e.is_active])).toEqual([
        ['1', 'Active', true],
        ['2', 'Terminated', false],
        ['3', 'ACTIVE', true],
        ['4', 'INACTIVE', false],
      ]);
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});

describe('several files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csv-hris-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true });
  });

  it('make one payload: managers and groups are shared across files, each file has its own header', async () => {
    const contractors = join(dir, 'contractors.csv');
    await writeFile(
      contractors,
      'First Name,Last Name,Employee Number,Active,Manager,Department,Agency\nZoe,Zimmer,C-1,yes,carla.diaz@example.com,Engineering,Staffing Co\n',
    );
    const ctx = testContext({ files: [fixture('employees-good.csv'), contractors] });
    const payload = await extractEmployees(ctx);
    expect(validate('hris', payload).errors).toEqual([]);
    expect(employee(payload, 'C-1')).toMatchObject({
      managers: [{ id: '1003' }],
      department: { id: 'department:Engineering' },
      custom_properties: { agency: 'Staffing Co' },
    });
    expect(payload.groups?.filter((g) => g.id === 'department:Engineering')).toHaveLength(1);
    expect(payload.custom_property_definition?.employee_properties).toEqual({
      badge_id: 'STRING',
      shirt_size: 'STRING',
      agency: 'STRING',
    });
    expect(ctx.phases).toEqual(['rows']);
    expect(ctx.ticks).toBe(6);
    expect(ctx.logs).toEqual([
      { file: fixture('employees-good.csv'), rows: 5 },
      { file: contractors, rows: 1 },
    ]);
  });

  it('link several managers, drop an employee named as its own manager, and work with an id column', async () => {
    const f = join(dir, 'ids.csv');
    await writeFile(
      f,
      [
        'uuid,employee_number,first_name,last_name,active,work_email,manager',
        'u-1,1,Ann,Ash,yes,ann@example.com,1',
        'u-2,2,Ben,Bay,yes,ben@example.com,1',
        'u-3,3,Cid,Cox,yes,cid@example.com,2 | ANN@example.com | 2',
      ].join('\n'),
    );
    const payload = await extractEmployees(testContext({ files: f, columns: { id: 'uuid' } }));
    expect(validate('hris', payload).errors).toEqual([]);
    expect(payload.employees?.map((e) => [e.id, e.employee_number, e.managers])).toEqual([
      ['u-1', '1', undefined],
      ['u-2', '2', [{ id: 'u-1' }]],
      ['u-3', '3', [{ id: 'u-2' }, { id: 'u-1' }]],
    ]);
  });

  it('stops when the run is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      extractEmployees(testContext({ files: fixture('employees-good.csv') }, controller.signal)),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('relative file paths', () => {
  it('are read from the base directory (the config file directory) and named as configured', async () => {
    const ctx = testContext({ files: 'employees-good.csv' });
    ctx.baseDir = dirname(fixture('employees-good.csv'));
    const payload = await extractEmployees(ctx);
    expect(payload.employees!.length).toBeGreaterThan(0);
    const missing = testContext({ files: 'nope.csv' });
    missing.baseDir = ctx.baseDir;
    await expect(extractEmployees(missing)).rejects.toThrow(/cannot read nope\.csv \(ENOENT: no such file\)/);
  });
});
