import { describe, expect, it } from 'vitest';
import {
  FILETIME_NEVER,
  dateToFiletime,
  domainSidOf,
  filetimeToIso,
  guidToBytes,
  guidToString,
  isExpired,
  isNever,
  parseFiletime,
  parseFlags,
  parseGroupType,
  sidOfRid,
  sidToString,
  uacFlags,
} from './ad-values.js';

describe('FILETIME (100 ns ticks since 1601-01-01 UTC)', () => {
  it('converts exactly, to the tick, with no rounding through a double', () => {
    // A pwdLastSet that Samba wrote, and its whenCreated of the same second (20261128031810.0Z).
    expect(filetimeToIso(parseFiletime('134403094909502120'))).toBe('2026-11-28T03:18:10.950212Z');
    // One tick later: a double (53 bits) could not tell the two apart.
    expect(filetimeToIso(parseFiletime('134403094909502121'))).toBe('2026-11-28T03:18:10.9502121Z');
    expect(filetimeToIso(116_444_736_000_000_000n)).toBe('1970-01-01T00:00:00Z');
  });

  it('counts from 1601 and reaches the end of 9999, before the Unix epoch too', () => {
    expect(filetimeToIso(1n)).toBe('1601-01-01T00:00:00.0000001Z');
    expect(filetimeToIso(116_444_735_999_999_999n)).toBe('1969-12-31T23:59:59.9999999Z');
    expect(filetimeToIso(2_650_467_743_999_999_999n)).toBe('9999-12-31T23:59:59.9999999Z');
    expect(() => filetimeToIso(2_650_467_744_000_000_000n)).toThrow(/after the year 9999/);
  });

  it('reads 0 and 2^63-1 as "never", and refuses negative intervals as instants', () => {
    expect(FILETIME_NEVER).toBe(2n ** 63n - 1n);
    expect(filetimeToIso(parseFiletime('9223372036854775807'))).toBeUndefined();
    expect(filetimeToIso(parseFiletime('0'))).toBeUndefined();
    expect(isNever(0n)).toBe(true);
    expect(isNever(1n)).toBe(false);
    // lockoutDuration and friends are negative intervals.
    expect(() => filetimeToIso(parseFiletime('-18000000000'))).toThrow(/negative/);
  });

  it('refuses what is not a 64-bit decimal integer, quoting it', () => {
    expect(() => parseFiletime('never')).toThrow('is not a FILETIME (a decimal integer): "never"');
    expect(() => parseFiletime('1.5')).toThrow(/decimal integer/);
    expect(() => parseFiletime('9223372036854775808')).toThrow(/signed 64-bit/);
    expect(parseFiletime('-9223372036854775808')).toBe(-(2n ** 63n));
  });

  it('turns a date into ticks, which turn back into the same instant', () => {
    const date = new Date('2031-05-06T07:08:09.123Z');
    expect(dateToFiletime(date)).toBe(116_444_736_000_000_000n + BigInt(date.getTime()) * 10_000n);
    expect(filetimeToIso(dateToFiletime(date))).toBe('2031-05-06T07:08:09.123Z');
  });

  it('tells an expired accountExpires from one in the future or "never"', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(isExpired(dateToFiletime(new Date('2029-12-31T23:59:59Z')), now)).toBe(true);
    expect(isExpired(dateToFiletime(now), now)).toBe(true);
    expect(isExpired(dateToFiletime(new Date('2030-01-01T00:00:01Z')), now)).toBe(false);
    expect(isExpired(0n, now)).toBe(false);
    expect(isExpired(FILETIME_NEVER, now)).toBe(false);
  });
});

describe('objectGUID', () => {
  it('writes the first three groups byte-reversed and the last two in order', () => {
    const bytes = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    expect(guidToString(bytes)).toBe('33221100-5544-7766-8899-aabbccddeeff');
    expect(guidToBytes('33221100-5544-7766-8899-AABBCCDDEEFF')).toEqual(bytes);
    expect(guidToBytes('{33221100-5544-7766-8899-aabbccddeeff}')).toEqual(bytes);
  });

  it('reads a GUID that is a view into a larger buffer', () => {
    const larger = Buffer.from('ff00112233445566778899aabbccddeeffff', 'hex');
    expect(guidToString(larger.subarray(1, 17))).toBe('33221100-5544-7766-8899-aabbccddeeff');
  });

  it('refuses anything but 16 bytes', () => {
    expect(() => guidToString(Buffer.alloc(15))).toThrow('is not a GUID: 15 bytes instead of 16');
    expect(() => guidToBytes('not-a-guid')).toThrow(/not a GUID string/);
  });
});

describe('objectSid', () => {
  it('writes the domain SID Samba reported at provisioning, from its bytes', () => {
    const bytes = Buffer.from('AQQAAAAAAAUVAAAAKN0e4yTmhlQsjlrW', 'base64');
    expect(sidToString(bytes)).toBe('S-1-5-21-3810450728-1418126884-3596258860');
  });

  it('writes well-known SIDs, and an authority beyond 32 bits in hex', () => {
    expect(sidToString(Buffer.from('01020000000000052000000020020000', 'hex'))).toBe('S-1-5-32-544');
    expect(sidToString(Buffer.from('010100000000000000000000', 'hex'))).toBe('S-1-0-0');
    expect(sidToString(Buffer.from('010101000000000201000000', 'hex'))).toBe('S-1-0x010000000002-1');
  });

  it('refuses bytes whose length does not match the sub-authority count', () => {
    expect(() => sidToString(Buffer.from('0102000000000005200000', 'hex'))).toThrow(
      'is not a SID: 11 bytes for 2 sub-authorities (expected 16)',
    );
    expect(() => sidToString(Buffer.alloc(4))).toThrow(/fewer than 8/);
  });

  it('finds the domain of a SID and the SID of a relative id', () => {
    const domain = 'S-1-5-21-3810450728-1418126884-3596258860';
    expect(domainSidOf(`${domain}-1105`)).toBe(domain);
    expect(sidOfRid(domain, 513)).toBe(`${domain}-513`);
    expect(() => domainSidOf('S-1-5')).toThrow(/not a SID with a relative id/);
    expect(() => sidOfRid(domain, -1)).toThrow(/not a relative id/);
  });
});

describe('userAccountControl and groupType', () => {
  it('names the userAccountControl bits of common accounts', () => {
    expect(uacFlags(parseFlags('512'))).toEqual(['NORMAL_ACCOUNT']);
    expect(uacFlags(parseFlags('514'))).toEqual(['ACCOUNTDISABLE', 'NORMAL_ACCOUNT']);
    expect(uacFlags(parseFlags('66048'))).toEqual(['NORMAL_ACCOUNT', 'DONT_EXPIRE_PASSWORD']);
    expect(uacFlags(parseFlags('546'))).toEqual(['ACCOUNTDISABLE', 'PASSWD_NOTREQD', 'NORMAL_ACCOUNT']);
    expect(uacFlags(0x10 | 0x80_0000)).toEqual(['LOCKOUT', 'PASSWORD_EXPIRED']);
  });

  it('reads groupType as AD stores it, a signed 32-bit integer', () => {
    expect(parseFlags('-2147483646')).toBe(0x8000_0002);
    expect(parseGroupType('-2147483646')).toEqual({ security: true, system: false, scope: 'global' });
    expect(parseGroupType('-2147483644')).toEqual({ security: true, system: false, scope: 'domain_local' });
    expect(parseGroupType('-2147483640')).toEqual({ security: true, system: false, scope: 'universal' });
    expect(parseGroupType('8')).toEqual({ security: false, system: false, scope: 'universal' });
    expect(parseGroupType('2')).toEqual({ security: false, system: false, scope: 'global' });
    // Builtin groups such as Administrators: system-created, domain local, security.
    expect(parseGroupType('-2147483643')).toEqual({ security: true, system: true, scope: 'domain_local' });
  });

  it('refuses what is not a 32-bit integer', () => {
    expect(() => parseFlags('0x200')).toThrow('is not a 32-bit integer: "0x200"');
    expect(() => parseFlags('4294967296')).toThrow(/32-bit/);
  });
});
