/**
 * The Active Directory flavour's rules on entries shaped as ldapts returns them, for the cases a
 * test domain does not easily hold: a clock on either side of accountExpires, an expiry past the
 * year 9999, a stored LOCKOUT bit without the computed one, a password that never expires with
 * pwdLastSet 0, and malformed values. The same mapping against Samba is in active-directory.test.ts.
 */
import { OaaError } from '@oaakit/core';
import type { Client, Entry } from 'ldapts';
import { describe, expect, it } from 'vitest';
import { activeDirectoryFlavor } from './active-directory.js';
import { FILETIME_NEVER, dateToFiletime } from './ad-values.js';

const DN = 'CN=Pat Doe,OU=People,DC=corp,DC=example';
/** S-1-5-21-3810450728-1418126884-3596258860, the domain of the user below. */
const DOMAIN_SID = 'S-1-5-21-3810450728-1418126884-3596258860';

function sidBytes(rid: number): Buffer {
  const tail = Buffer.alloc(4);
  tail.writeUInt32LE(rid);
  return Buffer.concat([Buffer.from('010500000000000515000000' + '28dd1ee324e686542c8e5ad6', 'hex'), tail]);
}

function user(overrides: Record<string, Entry[string]> = {}): Entry {
  return {
    dn: DN,
    objectGUID: Buffer.from('00112233445566778899aabbccddeeff', 'hex'),
    objectSid: sidBytes(1105),
    sAMAccountName: 'pdoe',
    userAccountControl: '512',
    'msDS-User-Account-Control-Computed': '0',
    accountExpires: '9223372036854775807',
    pwdLastSet: '134403094909502120',
    primaryGroupID: '513',
    whenCreated: '20261128031810.0Z',
    ...overrides,
  };
}

const at = (iso: string) => activeDirectoryFlavor({ now: () => new Date(iso) });

async function problem(run: () => unknown): Promise<OaaError<string>> {
  const error: unknown = await Promise.resolve()
    .then(run)
    .then(
      () => new Error('no error'),
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(OaaError);
  return error as OaaError<string>;
}

describe('users', () => {
  it('maps the ids, the SID, the primary group and the timestamps', () => {
    const u = at('2030-01-01T00:00:00Z').toUser(user());
    expect(u).toMatchObject({
      id: '33221100-5544-7766-8899-aabbccddeeff',
      login: 'pdoe',
      active: true,
      locked: false,
      mustChangePassword: false,
      implicitGroupSids: [`${DOMAIN_SID}-513`],
      createdAt: '2026-11-28T03:18:10Z',
      passwordLastSetAt: '2026-11-28T03:18:10.950212Z',
      properties: {
        object_sid: `${DOMAIN_SID}-1105`,
        user_account_control: 512,
        account_flags: ['NORMAL_ACCOUNT'],
        password_expired: false,
      },
    });
    expect(u.properties.account_expires_at).toBeUndefined();
  });

  it('is active until accountExpires, and not from then on', () => {
    const entry = user({ accountExpires: String(dateToFiletime(new Date('2030-06-01T00:00:00Z'))) });
    expect(at('2030-05-31T23:59:59Z').toUser(entry).active).toBe(true);
    expect(at('2030-06-01T00:00:00Z').toUser(entry).active).toBe(false);
    expect(at('2030-05-31T23:59:59Z').toUser(entry).properties.account_expires_at).toBe(
      '2030-06-01T00:00:00Z',
    );
    // 0 and 2^63-1 both mean never.
    expect(at('2999-01-01T00:00:00Z').toUser(user({ accountExpires: '0' })).active).toBe(true);
    expect(at('2999-01-01T00:00:00Z').toUser(user({ accountExpires: String(FILETIME_NEVER) })).active).toBe(
      true,
    );
  });

  it('reads an expiry after the year 9999 as in the future, without a timestamp', () => {
    const u = at('2030-01-01T00:00:00Z').toUser(user({ accountExpires: '9000000000000000000' }));
    expect(u.active).toBe(true);
    expect(u.properties.account_expires_at).toBeUndefined();
  });

  it('is inactive when disabled, whatever accountExpires says', () => {
    const u = at('2030-01-01T00:00:00Z').toUser(user({ userAccountControl: '514' }));
    expect(u.active).toBe(false);
    expect(u.properties.account_flags).toEqual(['ACCOUNTDISABLE', 'NORMAL_ACCOUNT']);
  });

  it('takes lockout from the computed flags, and from the stored bit only when those are not readable', () => {
    const flavor = at('2030-01-01T00:00:00Z');
    expect(flavor.toUser(user({ 'msDS-User-Account-Control-Computed': '16' })).locked).toBe(true);
    // AD leaves a stale LOCKOUT bit in userAccountControl; the computed flags say it has passed.
    expect(flavor.toUser(user({ userAccountControl: '528' })).locked).toBe(false);
    expect(
      flavor.toUser(user({ userAccountControl: '528', 'msDS-User-Account-Control-Computed': [] })).locked,
    ).toBe(true);
  });

  it('must change the password when pwdLastSet is 0, unless the password never expires', () => {
    const flavor = at('2030-01-01T00:00:00Z');
    const must = flavor.toUser(user({ pwdLastSet: '0', 'msDS-User-Account-Control-Computed': '8388608' }));
    expect(must).toMatchObject({ mustChangePassword: true, properties: { password_expired: true } });
    expect(must.passwordLastSetAt).toBeUndefined();
    expect(flavor.toUser(user({ pwdLastSet: '0', userAccountControl: '66048' })).mustChangePassword).toBe(
      false,
    );
  });

  it('names the entry and the attribute of a value it cannot read', async () => {
    const flavor = at('2030-01-01T00:00:00Z');
    const noGuid = await problem(() => flavor.toUser(user({ objectGUID: [] })));
    expect(noGuid.code).toBe('ENTRY_INVALID');
    expect(noGuid.message).toBe(`entry "${DN}" has no objectGUID (the id of the user)`);
    const shortGuid = await problem(() => flavor.toUser(user({ objectGUID: Buffer.alloc(15) })));
    expect(shortGuid.message).toBe(`entry "${DN}": objectGUID is not a GUID: 15 bytes instead of 16`);
    expect(shortGuid.details).toEqual({ dn: DN, attribute: 'objectGUID' });
    const expires = await problem(() => flavor.toUser(user({ accountExpires: 'soon' })));
    expect(expires.message).toBe(
      `entry "${DN}": accountExpires is not a FILETIME (a decimal integer): "soon"`,
    );
    const created = await problem(() => flavor.toUser(user({ whenCreated: 'yesterday' })));
    expect(created.message).toBe(`entry "${DN}": whenCreated is not a generalized time: "yesterday"`);
    const uac = await problem(() => flavor.toUser(user({ userAccountControl: [] })));
    expect(uac.message).toBe(`entry "${DN}" has no userAccountControl (whether the account is enabled)`);
  });
});

describe('groups', () => {
  const noReads = {
    search: () => Promise.reject(new Error('a group whose members came whole needs no further read')),
  } as unknown as Client;

  it('maps a global security group and its members', async () => {
    const g = await at('2030-01-01T00:00:00Z').toGroup(
      {
        dn: 'CN=Engineering,OU=Groups,DC=corp,DC=example',
        objectGUID: Buffer.from('00112233445566778899aabbccddeeff', 'hex'),
        objectSid: sidBytes(1110),
        cn: 'Engineering',
        sAMAccountName: 'Engineering',
        groupType: '-2147483646',
        'member;range=0-*': [DN, 'CN=Backend,OU=Groups,DC=corp,DC=example'],
        'member;range=0-1499': [],
      },
      noReads,
    );
    expect(g).toEqual({
      id: '33221100-5544-7766-8899-aabbccddeeff',
      dn: 'CN=Engineering,OU=Groups,DC=corp,DC=example',
      name: 'Engineering',
      isSecurityGroup: true,
      sid: `${DOMAIN_SID}-1110`,
      memberDns: [DN, 'CN=Backend,OU=Groups,DC=corp,DC=example'],
      memberUids: [],
      properties: {
        object_sid: `${DOMAIN_SID}-1110`,
        sam_account_name: 'Engineering',
        group_scope: 'global',
        system_group: false,
      },
    });
  });

  it('asks for member in 1,500-value ranges from the first read', () => {
    expect(activeDirectoryFlavor().groupAttributes).toContain('member;range=0-1499');
    expect(activeDirectoryFlavor({ rangeStep: 100 }).groupAttributes).toContain('member;range=0-99');
    expect(activeDirectoryFlavor().groupAttributes).not.toContain('member');
  });
});
