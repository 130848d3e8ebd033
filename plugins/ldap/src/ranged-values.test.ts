/**
 * How answers to ranged reads are understood. The entries are shaped as ldapts returns them from a
 * real server (Samba), including the empty attribute ldapts adds for each one asked for but not
 * returned. The reads themselves run against Samba in active-directory.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { RANGE_STEP, rangePart, rangedAttribute } from './ranged-values.js';

const dn = 'CN=Alumni,OU=Groups,DC=corp,DC=example';
const members = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `CN=user${from + i},OU=Alumni,DC=corp,DC=example`);

describe('asking for a range', () => {
  it('asks for 1,500 values at a time by default, as Active Directory answers', () => {
    expect(RANGE_STEP).toBe(1500);
    expect(rangedAttribute('member')).toBe('member;range=0-1499');
    expect(rangedAttribute('member', 1500)).toBe('member;range=1500-2999');
    expect(rangedAttribute('member', 10, 5)).toBe('member;range=10-14');
  });

  it('refuses a negative start or an empty step', () => {
    expect(() => rangedAttribute('member', -1)).toThrow('range start must be a whole number, not -1');
    expect(() => rangedAttribute('member', 0, 0)).toThrow('range step must be at least 1, not 0');
  });
});

describe('reading the answer', () => {
  it('takes a slice with values as the answer, not the empty echo of the request', () => {
    const part = rangePart({ dn, 'member;range=0-1499': members(0, 1499) }, 'member');
    expect(part).toEqual({ kind: 'range', low: 0, high: 1499, values: members(0, 1499) });
  });

  it('takes a slice ending in * as the last one, next to the echo of the request', () => {
    // Asked for 1500-2999; Samba answered 1500-* and ldapts added the empty 1500-2999.
    const part = rangePart(
      { dn, 'member;range=1500-*': members(1500, 1599), 'member;range=1500-2999': [] },
      'member',
    );
    expect(part).toEqual({ kind: 'range', low: 1500, high: '*', values: members(1500, 1599) });
  });

  it('takes a single value as a list of one', () => {
    const part = rangePart({ dn, 'member;range=0-*': 'CN=only,DC=corp,DC=example' }, 'member');
    expect(part).toEqual({ kind: 'range', low: 0, high: '*', values: ['CN=only,DC=corp,DC=example'] });
  });

  it('takes an empty last slice: the values ran out where the previous slice ended', () => {
    expect(rangePart({ dn, 'member;range=1500-*': [] }, 'member')).toEqual({
      kind: 'range',
      low: 1500,
      high: '*',
      values: [],
    });
  });

  it('reads a group without members as complete and empty', () => {
    expect(rangePart({ dn, 'member;range=0-1499': [] }, 'member')).toEqual({ kind: 'all', values: [] });
  });

  it('reads values sent whole (a server that ignores ranges) as complete', () => {
    expect(rangePart({ dn, member: members(0, 2) }, 'member')).toEqual({
      kind: 'all',
      values: members(0, 2),
    });
  });

  it('matches the attribute name and the range option without case, and ignores other attributes', () => {
    const part = rangePart(
      { dn, cn: 'Alumni', 'Member;Range=0-*': members(0, 1), 'memberOf;range=0-*': ['x'] },
      'member',
    );
    expect(part).toEqual({ kind: 'range', low: 0, high: '*', values: members(0, 1) });
  });

  it('refuses a slice whose value count does not match its range, naming the entry', () => {
    expect(() => rangePart({ dn, 'member;range=0-1499': members(0, 9) }, 'member')).toThrow(
      `${dn}: member;range=0-1499 holds 10 values, which does not match its range 0-1499`,
    );
  });
});
