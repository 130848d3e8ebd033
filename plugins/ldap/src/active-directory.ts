/**
 * Active Directory's rules (also Samba as an AD domain controller):
 *
 * - Users are person objects of class `user` (`objectCategory=person` leaves computers out; they
 *   are `user` objects too) and groups are `group` objects.
 * - Ids are `objectGUID` in its standard string form, which survives renames and moves; the SID is
 *   kept as a property, and names the primary group.
 * - An account is active when `userAccountControl` does not have ACCOUNTDISABLE (0x2) and
 *   `accountExpires` is 0, 2^63-1 or in the future. Lockout is temporary and reported apart, from
 *   the constructed `msDS-User-Account-Control-Computed` (AD does not keep the LOCKOUT bit of
 *   `userAccountControl` up to date).
 * - The primary group (`primaryGroupID`, a relative id in the user's own domain) is a membership that
 *   neither the group's `member` nor the user's `memberOf` lists.
 * - `member` is read in 1,500-value ranges (see `ranged-values.ts`).
 */
import { OaaError, type PropertyType } from '@oaakit/core';
import {
  AndFilter,
  EqualityFilter,
  InsufficientAccessError,
  NoSuchObjectError,
  type Client,
  type Entry,
} from 'ldapts';
import {
  UAC,
  domainSidOf,
  filetimeToIso,
  guidToString,
  isExpired,
  parseFiletime,
  parseFlags,
  parseGroupType,
  sidOfRid,
  sidToString,
  uacFlags,
} from './ad-values.js';
import { dnsName, isUnder, normalizeDn } from './dn.js';
import { buffers, first, generalizedTime, missing, required, values } from './entry-values.js';
import type { LdapErrorCode } from './error-codes.js';
import type {
  DirectoryDomain,
  DirectoryFlavor,
  DirectoryGroup,
  DirectoryUser,
  PropertyValue,
} from './flavor.js';
import { RANGE_STEP, rangedAttribute, readRangedValues } from './ranged-values.js';

/** People, not computers, contacts or managed service accounts. */
export const AD_USER_FILTER = '(&(objectCategory=person)(objectClass=user))';
/** Security and distribution groups of every scope. */
export const AD_GROUP_FILTER = '(objectClass=group)';

/** Custom properties of Active Directory users (besides the connector's own). */
export const AD_USER_PROPERTIES = {
  /** The user's SID, `S-1-5-21-...`: what Windows access control lists name. */
  object_sid: 'STRING',
  /** The pre-Windows 2000 logon name (also the user's name in the payload). */
  sam_account_name: 'STRING',
  /** `userAccountControl` as stored. */
  user_account_control: 'NUMBER',
  /** The names of the bits set in `userAccountControl` and in its computed form (LOCKOUT, PASSWORD_EXPIRED). */
  account_flags: 'STRING_LIST',
  /** When `accountExpires` ends the account; unset for never. */
  account_expires_at: 'TIMESTAMP',
  /** The password has expired (or must be changed): the computed PASSWORD_EXPIRED bit. */
  password_expired: 'BOOLEAN',
} as const satisfies Record<string, PropertyType>;

/** Custom properties of Active Directory groups (besides the connector's own). */
export const AD_GROUP_PROPERTIES = {
  object_sid: 'STRING',
  sam_account_name: 'STRING',
  /** `global`, `domain_local` or `universal`. */
  group_scope: 'STRING',
  /** Created by the system with the domain (the Builtin groups, for one). */
  system_group: 'BOOLEAN',
} as const satisfies Record<string, PropertyType>;

/** The constructed attribute with the live LOCKOUT and PASSWORD_EXPIRED bits. */
const UAC_COMPUTED = 'msDS-User-Account-Control-Computed';

const USER_ATTRIBUTES = [
  'objectGUID',
  'objectSid',
  'sAMAccountName',
  'userPrincipalName',
  'mail',
  'displayName',
  'cn',
  'givenName',
  'sn',
  'department',
  'title',
  'manager',
  'userAccountControl',
  UAC_COMPUTED,
  'accountExpires',
  'whenCreated',
  'lastLogonTimestamp',
  'pwdLastSet',
  'primaryGroupID',
] as const;

const BINARY_ATTRIBUTES = ['objectGUID', 'objectSid'] as const;

/** Options of {@link activeDirectoryFlavor}. */
export interface ActiveDirectoryOptions {
  /** The clock `accountExpires` is compared with. Default: the system clock. */
  now?: () => Date;
  /** `member` values asked for per read. Default 1,500, AD's default MaxValRange. */
  rangeStep?: number;
}

/** The error of a value the mapping cannot read, naming the entry and the attribute. */
function invalid(entry: Entry, name: string, problem: string): OaaError<LdapErrorCode> {
  return new OaaError<LdapErrorCode>(`entry "${entry.dn}": ${name} ${problem}`, {
    code: 'ENTRY_INVALID',
    details: { dn: entry.dn, attribute: name },
  });
}

/** Converts one attribute's value with `to`, whose error message says what is wrong with it. */
function convert<V, T>(entry: Entry, name: string, value: V, to: (value: V) => T): T {
  try {
    return to(value);
  } catch (error) {
    throw invalid(entry, name, (error as Error).message);
  }
}

/** A required binary attribute (read as a buffer, see `binaryAttributes`), decoded. */
function decoded(entry: Entry, name: string, what: string, decode: (bytes: Buffer) => string): string {
  const bytes = buffers(entry, name)[0];
  if (bytes === undefined) throw missing(entry, name, what);
  return convert(entry, name, bytes, decode);
}

/** An optional attribute, converted; `undefined` when absent. */
function converted<T>(entry: Entry, name: string, to: (value: string) => T): T | undefined {
  const value = first(entry, name);
  return value === undefined ? undefined : convert(entry, name, value, to);
}

/** The full name: `displayName`, else `cn`, else `givenName` and `sn`. */
function fullNameOf(entry: Entry): string | undefined {
  const display = first(entry, 'displayName') ?? first(entry, 'cn');
  if (display !== undefined) return display;
  const parts = [first(entry, 'givenName'), first(entry, 'sn')].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The naming context `baseDn` lies in: the default one, else the longest one that holds it. */
function namingContextOf(rootDse: Entry, baseDn: string): string {
  const base = normalizeDn(baseDn);
  const preferred = first(rootDse, 'defaultNamingContext');
  if (preferred !== undefined && isUnder(base, normalizeDn(preferred))) return preferred;
  const found = values(rootDse, 'namingContexts')
    .filter((nc) => isUnder(base, normalizeDn(nc)))
    .sort((a, b) => b.length - a.length)[0];
  return found ?? preferred ?? baseDn;
}

/** The Active Directory flavour. */
export function activeDirectoryFlavor(options: ActiveDirectoryOptions = {}): DirectoryFlavor {
  const now = options.now ?? (() => new Date());
  const rangeStep = options.rangeStep ?? RANGE_STEP;

  function toUser(entry: Entry): DirectoryUser {
    const id = decoded(entry, 'objectGUID', 'the id of the user', guidToString);
    const sid = decoded(entry, 'objectSid', 'the SID of the user', sidToString);
    const login = required(entry, 'sAMAccountName', 'the login of the user');
    const uac = convert(
      entry,
      'userAccountControl',
      required(entry, 'userAccountControl', 'whether the account is enabled'),
      parseFlags,
    );
    const computed = converted(entry, UAC_COMPUTED, parseFlags);
    const expires = converted(entry, 'accountExpires', parseFiletime) ?? 0n;
    const instant = (name: string) => converted(entry, name, (v) => filetimeToIso(parseFiletime(v)));
    const pwdLastSet = first(entry, 'pwdLastSet');
    const primaryGroupSid = converted(entry, 'primaryGroupID', (v) => {
      if (!/^\d+$/.test(v)) throw new Error(`is not a relative id: ${JSON.stringify(v)}`);
      return sidOfRid(domainSidOf(sid), Number(v));
    });

    const properties: Record<string, PropertyValue> = {
      object_sid: sid,
      sam_account_name: login,
      user_account_control: uac,
      account_flags: uacFlags(uac | (computed ?? 0)),
    };
    try {
      const expiresAt = filetimeToIso(expires);
      if (expiresAt !== undefined) properties.account_expires_at = expiresAt;
    } catch {
      // After the year 9999, which a timestamp cannot show; the account does not expire before.
    }
    if (computed !== undefined) properties.password_expired = (computed & UAC.PASSWORD_EXPIRED) !== 0;

    const user: DirectoryUser = {
      id,
      dn: entry.dn,
      login,
      active: (uac & UAC.ACCOUNTDISABLE) === 0 && !isExpired(expires, now()),
      // AD does not keep the stored LOCKOUT bit up to date; the computed one is, where it is readable.
      locked: ((computed ?? uac) & UAC.LOCKOUT) !== 0,
      // pwdLastSet 0 forces a change at the next sign-in, unless the password never expires or a
      // smart card is required (as AD computes PASSWORD_EXPIRED).
      mustChangePassword:
        pwdLastSet === '0' && (uac & (UAC.DONT_EXPIRE_PASSWORD | UAC.SMARTCARD_REQUIRED)) === 0,
      implicitGroupSids: primaryGroupSid === undefined ? [] : [primaryGroupSid],
      properties,
    };
    const set = <K extends keyof DirectoryUser>(key: K, value: DirectoryUser[K] | undefined): void => {
      if (value !== undefined) user[key] = value;
    };
    set('principalName', first(entry, 'userPrincipalName'));
    set('email', first(entry, 'mail'));
    set('fullName', fullNameOf(entry));
    set('department', first(entry, 'department'));
    set('title', first(entry, 'title'));
    set('managerDn', first(entry, 'manager'));
    set(
      'createdAt',
      converted(entry, 'whenCreated', (v) => {
        const at = generalizedTime(v);
        if (at === undefined) throw new Error(`is not a generalized time: ${JSON.stringify(v)}`);
        return at;
      }),
    );
    set('lastLoginAt', instant('lastLogonTimestamp'));
    if (pwdLastSet !== '0') set('passwordLastSetAt', instant('pwdLastSet'));
    return user;
  }

  async function toGroup(entry: Entry, client: Client): Promise<DirectoryGroup> {
    const id = decoded(entry, 'objectGUID', 'the id of the group', guidToString);
    const sid = decoded(entry, 'objectSid', 'the SID of the group', sidToString);
    const type = convert(
      entry,
      'groupType',
      required(entry, 'groupType', 'security or distribution group'),
      parseGroupType,
    );
    const samAccountName = first(entry, 'sAMAccountName');
    const properties: Record<string, PropertyValue> = { object_sid: sid, system_group: type.system };
    if (samAccountName !== undefined) properties.sam_account_name = samAccountName;
    if (type.scope !== undefined) properties.group_scope = type.scope;
    const group: DirectoryGroup = {
      id,
      dn: entry.dn,
      name: first(entry, 'cn') ?? required(entry, 'sAMAccountName', 'the name of the group'),
      isSecurityGroup: type.security,
      sid,
      memberDns: await readRangedValues(client, entry, 'member', { step: rangeStep }),
      memberUids: [],
      properties,
    };
    const description = first(entry, 'description');
    if (description !== undefined) group.description = description;
    return group;
  }

  async function readDomain(client: Client, rootDse: Entry, baseDn: string): Promise<DirectoryDomain> {
    const namingContext = namingContextOf(rootDse, baseDn);
    const { searchEntries } = await client.search(namingContext, {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: ['objectSid'],
      explicitBufferAttributes: ['objectSid'],
    });
    const head = searchEntries[0];
    const sidBytes = head === undefined ? undefined : buffers(head, 'objectSid')[0];
    const domain: DirectoryDomain = { namingContext, name: dnsName(namingContext) };
    if (head !== undefined && sidBytes !== undefined)
      domain.sid = convert(head, 'objectSid', sidBytes, sidToString);
    // The domain's DNS name is its crossRef's dnsRoot (in the configuration partition); the realm
    // is that name in capitals. Without a readable crossRef, the DC components of the name say it.
    const configuration = first(rootDse, 'configurationNamingContext');
    if (configuration !== undefined) {
      try {
        const { searchEntries: refs } = await client.search(`CN=Partitions,${configuration}`, {
          scope: 'one',
          filter: new AndFilter({
            filters: [
              new EqualityFilter({ attribute: 'objectClass', value: 'crossRef' }),
              new EqualityFilter({ attribute: 'nCName', value: namingContext }),
            ],
          }),
          attributes: ['dnsRoot'],
        });
        const dnsRoot = refs[0] === undefined ? undefined : first(refs[0], 'dnsRoot');
        if (dnsRoot !== undefined) domain.name = dnsRoot.toLowerCase();
      } catch (error) {
        if (!(error instanceof NoSuchObjectError || error instanceof InsufficientAccessError)) throw error;
      }
    }
    domain.realm = domain.name.toUpperCase();
    return domain;
  }

  return {
    name: 'active-directory',
    userFilter: AD_USER_FILTER,
    groupFilter: AD_GROUP_FILTER,
    userAttributes: USER_ATTRIBUTES,
    groupAttributes: [
      'objectGUID',
      'objectSid',
      'cn',
      'sAMAccountName',
      'description',
      'groupType',
      // Asked for as a range even where the server would send every value: see ranged-values.ts.
      rangedAttribute('member', 0, rangeStep),
    ],
    binaryAttributes: BINARY_ATTRIBUTES,
    userProperties: AD_USER_PROPERTIES,
    groupProperties: AD_GROUP_PROPERTIES,
    toUser,
    toGroup,
    readDomain,
  };
}
