import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { jsonChunks } from '../serialize/json-chunks.js';
import { fixture } from '../private-test-helpers/fixtures.js';
import { validate } from './index.js';
import { validateAsRead } from './streaming.js';

/** `items` as a one-shot async generator (pages fetched one after another), counting its reads. */
function pages<T>(items: readonly T[], reads: { n: number }): AsyncGenerator<T> {
  return (async function* () {
    reads.n++;
    for (const item of items) {
      await Promise.resolve();
      yield item;
    }
  })();
}

/** The JSON text of `value`, or what reading it threw. */
async function text(value: unknown): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonChunks(value, { chunkSize: 32 })) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The violations of reading `checked.value` to its end: those thrown, else those found at once. */
async function readErrors(checked: ReturnType<typeof validateAsRead>): Promise<unknown[]> {
  if (checked.errors.length > 0) return [...checked.errors];
  const thrown = await text(checked.value).catch((e: unknown) => e);
  return thrown instanceof ValidationError ? [...thrown.violations] : [];
}

describe('validateAsRead of identity-provider users', () => {
  const idp = () => fixture('identity-provider');

  it('checks streamed users during the one read that serializes them', async () => {
    const p = idp();
    const expected = structuredClone(p);
    const reads = { n: 0 };
    p.users = pages(p.users, reads);
    const checked = validateAsRead('identity_provider', p);
    expect(checked.errors).toEqual([]);
    expect(checked.complete).toBe(false);
    expect(reads.n).toBe(0);
    const out = await text(checked.value);
    expect(JSON.parse(out)).toEqual(expected);
    expect(Object.keys(JSON.parse(out))).toEqual(Object.keys(expected));
    expect(reads.n).toBe(1);
    expect(checked.complete).toBe(true);
    expect(checked.errors).toEqual([]);
  });

  it('accepts a manager_id that names a user streamed later', async () => {
    const p = idp();
    p.users[0].manager_id = 'u-2';
    p.users = pages(p.users, { n: 0 });
    const checked = validateAsRead('identity_provider', p);
    await text(checked.value);
    expect(checked.complete).toBe(true);
    expect(checked.errors).toEqual([]);
  });

  it('refuses a manager_id that names no user once the last user is read, as validate does', async () => {
    const p = idp();
    p.users[0].manager_id = 'u-9';
    const direct = validate('identity_provider', structuredClone(p)).errors;
    expect(direct).toEqual([
      {
        field: 'users[0].manager_id',
        description: 'manager "u-9" is not the identity of a user in users',
      },
    ]);
    p.users = pages(p.users, { n: 0 });
    const checked = validateAsRead('identity_provider', p);
    expect(checked.errors).toEqual([]);
    const chunks: Buffer[] = [];
    const error = await (async () => {
      for await (const chunk of jsonChunks(checked.value, { chunkSize: 16 })) chunks.push(chunk);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).violations).toEqual(direct);
    expect((error as ValidationError).message).toContain(
      'users[0].manager_id: manager "u-9" is not the identity of a user in users',
    );
    // What was produced is not a whole payload.
    expect(() => JSON.parse(Buffer.concat(chunks).toString('utf8'))).toThrow();
  });

  it('refuses a user in a group that does not exist, as validate does', async () => {
    const p = idp();
    p.users[1].groups = [{ identity: 'g-ops' }];
    const direct = validate('identity_provider', structuredClone(p)).errors;
    p.users = pages(p.users, { n: 0 });
    const errors = await readErrors(validateAsRead('identity_provider', p));
    expect(errors).toEqual(direct);
    expect(errors).toEqual([
      { field: 'users[1].groups[0].identity', description: 'group "g-ops" does not exist in groups' },
    ]);
  });

  it('reports at once, without reading the users, when the rest is invalid', () => {
    const p = idp();
    p.groups[1].groups = [{ identity: 'g-eng' }];
    const reads = { n: 0 };
    p.users = pages(p.users, reads);
    const checked = validateAsRead('identity_provider', p);
    expect(checked.complete).toBe(true);
    expect(checked.errors.map((e) => e.field)).toEqual(['groups[0].groups']);
    expect(reads.n).toBe(0);
  });

  it('finds the same violations as validate for any mix of broken users', async () => {
    const breakages: ((p: any) => void)[] = [
      (p) => (p.users[0].manager_id = 'nobody'),
      (p) => (p.users[0].manager_id = 'U-2'),
      (p) => (p.users[1].manager_id = 'u-7'),
      (p) => (p.users[1].identity = 'U-1'),
      (p) => (p.users[1].is_active = 'yes'),
      (p) => (p.users[0].groups = [{ identity: 'g-ops' }, { identity: 'G-ALL' }]),
      (p) => (p.users[0].custom_properties.title = 3),
      (p) => (p.users[0].app_assignments[0].app_id = 'app-chat'),
      (p) => (p.users[1].operation = 'add'),
      (p) => p.users.push({ name: 'carol', identity: 'u-7', manager_id: 'u-2' }),
    ];
    await fc.assert(
      fc.asyncProperty(fc.subarray(breakages), async (chosen) => {
        const p = idp();
        for (const breakIt of chosen) breakIt(p);
        const direct = validate('identity_provider', structuredClone(p));
        p.users = pages(p.users, { n: 0 });
        const checked = validateAsRead('identity_provider', p);
        expect(await readErrors(checked)).toEqual(direct.errors);
        expect(checked.warnings).toEqual(direct.warnings);
      }),
      { numRuns: 60 },
    );
  });
});

describe('validateAsRead of hris employees', () => {
  const hris = () => fixture('hris');

  it('checks streamed employees as they are read; a manager may come later', async () => {
    const p = hris();
    p.employees[0].managers = [{ id: 'E2' }];
    const expected = structuredClone(p);
    const reads = { n: 0 };
    p.employees = pages(p.employees, reads);
    const checked = validateAsRead('hris', p);
    expect(checked.errors).toEqual([]);
    expect(JSON.parse(await text(checked.value))).toEqual(expected);
    expect(reads.n).toBe(1);
    expect(checked.complete).toBe(true);
    expect(checked.errors).toEqual([]);
  });

  it('refuses a manager that is no employee and an unknown department, as validate does', async () => {
    const p = hris();
    p.employees[0].managers = [{ id: 'E2' }, { id: 'E9' }];
    p.employees[1].department = { id: 'dept-hr' };
    const direct = validate('hris', structuredClone(p)).errors;
    p.employees = pages(p.employees, { n: 0 });
    const errors = await readErrors(validateAsRead('hris', p));
    expect(errors).toEqual(direct);
    expect(errors).toEqual([
      {
        field: 'employees[1].department.id',
        description: 'department "dept-hr" is not the id of a group in groups',
      },
      {
        field: 'employees[0].managers[1].id',
        description: 'manager "E9" is not the id of an employee in employees',
      },
    ]);
  });
});
