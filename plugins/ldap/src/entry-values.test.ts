import { OaaError } from '@oaakit/core';
import { describe, expect, it } from 'vitest';
import { buffers, first, generalizedTime, required, values } from './entry-values.js';

describe('generalizedTime', () => {
  it('converts whole seconds in UTC', () => {
    expect(generalizedTime('20240131235959Z')).toBe('2024-01-31T23:59:59Z');
  });

  it('keeps every digit of a fraction of a second', () => {
    expect(generalizedTime('20261128033000.587682Z')).toBe('2026-11-28T03:30:00.587682Z');
    expect(generalizedTime('20240131235959,5Z')).toBe('2024-01-31T23:59:59.5Z');
    expect(generalizedTime('20240131235959.000Z')).toBe('2024-01-31T23:59:59Z');
  });

  it('turns a fraction of an hour or a minute into minutes and seconds, exactly', () => {
    expect(generalizedTime('2024013123.5Z')).toBe('2024-01-31T23:30:00Z');
    expect(generalizedTime('2024013123.001Z')).toBe('2024-01-31T23:00:03.6Z');
    expect(generalizedTime('202401312359.25Z')).toBe('2024-01-31T23:59:15Z');
    expect(generalizedTime('202401312359Z')).toBe('2024-01-31T23:59:00Z');
  });

  it('applies an offset, across a day and a year', () => {
    expect(generalizedTime('20240101003000+0100')).toBe('2023-12-31T23:30:00Z');
    expect(generalizedTime('20231231233000-0130')).toBe('2024-01-01T01:00:00Z');
    expect(generalizedTime('20240131235959.5+02')).toBe('2024-01-31T21:59:59.5Z');
  });

  it("reads ppolicy's permanent lock, year 0000, as it is", () => {
    expect(generalizedTime('000001010000Z')).toBe('0000-01-01T00:00:00Z');
  });

  it('knows leap days', () => {
    expect(generalizedTime('20240229120000Z')).toBe('2024-02-29T12:00:00Z');
    expect(generalizedTime('20230229120000Z')).toBeUndefined();
    expect(generalizedTime('21000229120000Z')).toBeUndefined();
    expect(generalizedTime('20000229120000Z')).toBe('2000-02-29T12:00:00Z');
  });

  it('is undefined for what is not a GeneralizedTime', () => {
    for (const bad of [
      '',
      '2024-01-31T23:59:59Z',
      '20241301000000Z',
      '20240132000000Z',
      '20240131246000Z',
      '20240131235959',
    ])
      expect(generalizedTime(bad)).toBeUndefined();
  });
});

describe('attribute values', () => {
  const entry = {
    dn: 'uid=a,dc=x',
    entryUUID: 'u-1',
    Mail: ['a@x', 'b@x'],
    empty: '',
    photo: Buffer.from('hi'),
  };

  it('are found whatever the case of the name', () => {
    expect(first(entry, 'entryuuid')).toBe('u-1');
    expect(values(entry, 'mail')).toEqual(['a@x', 'b@x']);
    expect(values(entry, 'photo')).toEqual(['hi']);
    expect(buffers(entry, 'MAIL')).toEqual([Buffer.from('a@x'), Buffer.from('b@x')]);
    expect(first(entry, 'empty')).toBeUndefined();
    expect(values(entry, 'absent')).toEqual([]);
  });

  it('required ones name the entry and the attribute when missing', () => {
    expect(required(entry, 'entryUUID', 'the id')).toBe('u-1');
    let error: unknown;
    try {
      required(entry, 'uid', 'the login of the user');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OaaError);
    expect(error).toMatchObject({
      message: 'entry "uid=a,dc=x" has no uid (the login of the user)',
      code: 'ENTRY_INVALID',
      details: { dn: 'uid=a,dc=x', attribute: 'uid' },
      hints: ['leave such entries out with the filter, e.g. add (uid=*) to it, or give the entry a uid'],
    });
  });
});
