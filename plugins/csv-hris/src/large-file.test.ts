import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@oaakit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from './csv/read-csv.js';
import { extractEmployees } from './extract.js';
import { testContext } from './private-test-helpers/context.js';
import { generateCsv } from './bench/generate-csv.js';

const ROWS = 200_000;

describe(`a generated export of ${ROWS.toLocaleString('en')} rows`, () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csv-hris-large-'));
    file = join(dir, 'employees.csv');
    await generateCsv(file, ROWS);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true });
  });

  it('is read in chunks, never as one piece', async () => {
    let batches = 0;
    let records = 0;
    for await (const batch of readCsv(file)) {
      batches++;
      records += batch.length;
    }
    expect(records).toBe(ROWS + 1);
    expect(batches).toBeGreaterThan((await stat(file)).size / (128 * 1024));
  });

  it('becomes a valid payload with every employee, group and manager link', async () => {
    const ctx = testContext({ files: file });
    const payload = await extractEmployees(ctx);
    expect(ctx.ticks).toBe(ROWS);
    expect(payload.employees).toHaveLength(ROWS);
    expect(payload.groups).toHaveLength(40 + 25);
    const employees = payload.employees ?? [];
    expect(employees.filter((e) => e.managers?.length === 1)).toHaveLength(ROWS - 1);
    expect(employees.filter((e) => !e.is_active)).toHaveLength(Math.floor(ROWS / 17));
    // Row 3000 reports by email (every third row does) to employee 1 + (3000 * 7919) % 20000.
    expect(employees[2999]).toMatchObject({
      id: '3000',
      name: 'Last3000, First3000',
      managers: [{ id: String(1 + ((3000 * 7919) % (ROWS / 10))) }],
      department: { id: 'department:Department 0' },
      start_date: '2020-01-05T00:00:00Z',
      custom_properties: { badge_id: 'B3000' },
    });
    expect(validate('hris', payload).errors).toEqual([]);
  });
});
