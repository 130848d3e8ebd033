import { describe, expect, it } from 'vitest';
import { headerKey, propertyName } from './fields.js';
import { BooleanReader, readDate, readEmploymentTypes } from './values.js';

describe('booleans', () => {
  const booleans = new BooleanReader();

  it('reads the usual words in any case, and an empty value as false', () => {
    for (const w of ['true', 'T', 'yes', 'Y', '1', 'Active', 'ENABLED'])
      expect(booleans.read(w)).toEqual({ ok: true, value: true });
    for (const w of ['false', 'f', 'No', 'n', '0', 'inactive', 'Disabled', ''])
      expect(booleans.read(w)).toEqual({ ok: true, value: false });
  });

  it('refuses anything else and says what is allowed', () => {
    const read = booleans.read('maybe');
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problem).toMatch(
      /"maybe" is not a boolean: use one of .*yes.* \(true\) or .*no.* or empty \(false\)/,
    );
  });

  it('takes other words instead of the defaults', () => {
    const german = new BooleanReader(['ja'], ['nein']);
    expect(german.read('Ja')).toEqual({ ok: true, value: true });
    expect(german.read('nein')).toEqual({ ok: true, value: false });
    expect(german.read('yes').ok).toBe(false);
  });
});

describe('dates', () => {
  it.each([
    ['2024-03-05', '2024-03-05T00:00:00Z'],
    ['2024/3/5', '2024-03-05T00:00:00Z'],
    ['03/05/2024', '2024-03-05T00:00:00Z'],
    ['3/5/2024', '2024-03-05T00:00:00Z'],
    ['2024-03-05T10:20:30Z', '2024-03-05T10:20:30Z'],
    ['2024-03-05T10:20:30.125+02:00', '2024-03-05T10:20:30.125+02:00'],
    ['2024-03-05 10:20', '2024-03-05T10:20:00Z'],
    ['2024-03-05t10:20:30-0530', '2024-03-05T10:20:30-05:30'],
    ['2024-02-29', '2024-02-29T00:00:00Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(readDate(text, 'MDY')).toEqual({ ok: true, value: iso });
  });

  it('reads day-first dates when told to', () => {
    expect(readDate('03/05/2024', 'DMY')).toEqual({ ok: true, value: '2024-05-03T00:00:00Z' });
    expect(readDate('31.12.2019', 'DMY')).toEqual({ ok: true, value: '2019-12-31T00:00:00Z' });
  });

  it.each([
    '2023-02-29',
    '13/01/2024',
    '2024-13-01',
    'next monday',
    '2024-03-05T25:00:00Z',
    '05-03-2024',
    '24-03-05',
  ])('refuses %s', (text) => {
    const read = readDate(text, 'MDY');
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problem).toContain(
      'is not a date: use YYYY-MM-DD, YYYY/MM/DD, MM/DD/YYYY or an RFC 3339 timestamp',
    );
  });
});

describe('employment types', () => {
  it('spells them the way the service does and splits lists', () => {
    expect(readEmploymentTypes('Full-time')).toEqual(['FULL_TIME']);
    expect(readEmploymentTypes('part time | Intern')).toEqual(['PART_TIME', 'INTERN']);
    expect(readEmploymentTypes('Contractor;contractor')).toEqual(['CONTRACTOR']);
  });
});

describe('column names', () => {
  it('compares headers ignoring case, spaces, dashes and dots', () => {
    expect(headerKey(' Employee Number ')).toBe('employee_number');
    expect(headerKey('employee-number')).toBe(headerKey('EMPLOYEE_NUMBER'));
  });

  it('makes custom property names of lower-case letters and underscores', () => {
    expect(propertyName('Badge ID')).toBe('badge_id');
    expect(propertyName('Größe (EU)')).toBe('grosse_eu');
    expect(propertyName('Level 2 Approver')).toBe('level_approver');
    expect(propertyName('2024')).toBe('');
  });
});
