/**
 * OpenLDAP's rules: `inetOrgPerson` / `posixAccount` users with `entryUUID` ids, the password
 * policy overlay's (ppolicy) lock and timestamps, and three kinds of static group: `groupOfNames`
 * (`member` DNs), `groupOfUniqueNames` (`uniqueMember` DNs) and `posixGroup` (`memberUid` logins).
 */
import type { PropertyType } from '@oaakit/core';
import type { Entry } from 'ldapts';
import type { DisabledAttribute } from './config.js';
import { dnsName, isUnder, normalizeDn } from './dn.js';
import { first, generalizedTime, required, values } from './entry-values.js';
import type {
  DirectoryDomain,
  DirectoryFlavor,
  DirectoryGroup,
  DirectoryUser,
  PropertyValue,
} from './flavor.js';

/** ppolicy's value of `pwdAccountLockedTime` for a lock that only an administrator lifts. */
export const PERMANENT_LOCK = '000001010000Z';

/** Options of the OpenLDAP flavour. */
export interface OpenLdapOptions {
  /** The attribute that says an account may not sign in; default `pwdAccountLockedTime`. */
  disabledAttribute?: DisabledAttribute | undefined;
}

/** Custom properties of OpenLDAP users (besides the connector's own). */
export const OPENLDAP_USER_PROPERTIES = {
  /** When ppolicy locked the account after failed binds (absent for an administrator's lock). */
  locked_at: 'TIMESTAMP',
  /** `shadowExpire` as the instant the account expires (the start of that day, UTC). */
  expires_at: 'TIMESTAMP',
  /** `posixAccount`'s numeric user id. */
  uid_number: 'NUMBER',
} as const satisfies Record<string, PropertyType>;

/** Custom properties of OpenLDAP groups (besides the connector's own). */
export const OPENLDAP_GROUP_PROPERTIES = {
  /** The group's object class: groupOfNames, groupOfUniqueNames or posixGroup. */
  group_type: 'STRING',
  /** `posixGroup`'s numeric group id. */
  gid_number: 'NUMBER',
} as const satisfies Record<string, PropertyType>;

const GROUP_CLASSES = ['groupOfNames', 'groupOfUniqueNames', 'posixGroup'] as const;
const DAY_MS = 86_400_000;

function integer(value: string | undefined): number | undefined {
  if (value === undefined || !/^-?\d+$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The instant `shadowExpire` names (days since 1970-01-01); undefined for never (absent or -1). */
function shadowExpiry(entry: Entry): number | undefined {
  const days = integer(first(entry, 'shadowExpire'));
  return days === undefined || days < 0 ? undefined : days * DAY_MS;
}

/** The full name: `displayName`, else `cn`, else `givenName` and `sn`. */
function fullName(entry: Entry): string | undefined {
  const display = first(entry, 'displayName') ?? first(entry, 'cn');
  if (display !== undefined) return display;
  const parts = [first(entry, 'givenName'), first(entry, 'sn')].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function isActive(entry: Entry, disabled: DisabledAttribute, now: number): boolean {
  switch (disabled) {
    case 'pwdAccountLockedTime':
      return first(entry, 'pwdAccountLockedTime') === undefined;
    case 'nsAccountLock':
      return first(entry, 'nsAccountLock')?.trim().toLowerCase() !== 'true';
    case 'shadowExpire': {
      // As PAM reads it: expired from the start of that day on.
      const expiry = shadowExpiry(entry);
      return expiry === undefined || now < expiry;
    }
  }
}

/** The OpenLDAP flavour. */
export function openLdapFlavor(options: OpenLdapOptions = {}): DirectoryFlavor {
  const disabled = options.disabledAttribute ?? 'pwdAccountLockedTime';
  return {
    name: 'openldap',
    userFilter: '(&(|(objectClass=inetOrgPerson)(objectClass=posixAccount))(uid=*))',
    groupFilter: '(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames)(objectClass=posixGroup))',
    userAttributes: [
      'entryUUID',
      'uid',
      'mail',
      'displayName',
      'cn',
      'givenName',
      'sn',
      'departmentNumber',
      'ou',
      'title',
      'manager',
      'uidNumber',
      'createTimestamp',
      'pwdLastSuccess',
      'pwdChangedTime',
      'pwdReset',
      'pwdAccountLockedTime',
      'nsAccountLock',
      'shadowExpire',
    ],
    groupAttributes: [
      'entryUUID',
      'cn',
      'description',
      'objectClass',
      'member',
      'uniqueMember',
      'memberUid',
      'gidNumber',
    ],
    binaryAttributes: [],
    userProperties: OPENLDAP_USER_PROPERTIES,
    groupProperties: OPENLDAP_GROUP_PROPERTIES,

    toUser(entry: Entry): DirectoryUser {
      const id = required(entry, 'entryUUID', 'the id of the user');
      const login = required(entry, 'uid', 'the login of the user');
      const properties: Record<string, PropertyValue> = {};
      const lockedTime = first(entry, 'pwdAccountLockedTime');
      if (lockedTime !== undefined && lockedTime !== PERMANENT_LOCK) {
        const at = generalizedTime(lockedTime);
        if (at !== undefined) properties.locked_at = at;
      }
      const expiry = shadowExpiry(entry);
      if (expiry !== undefined) properties.expires_at = new Date(expiry).toISOString().replace('.000Z', 'Z');
      const uidNumber = integer(first(entry, 'uidNumber'));
      if (uidNumber !== undefined) properties.uid_number = uidNumber;

      const user: DirectoryUser = {
        id,
        dn: entry.dn,
        login,
        active: isActive(entry, disabled, Date.now()),
        locked: lockedTime !== undefined,
        properties,
      };
      const set = <K extends keyof DirectoryUser>(key: K, value: DirectoryUser[K] | undefined): void => {
        if (value !== undefined) user[key] = value;
      };
      set('email', first(entry, 'mail'));
      set('fullName', fullName(entry));
      set('department', first(entry, 'departmentNumber') ?? first(entry, 'ou'));
      set('title', first(entry, 'title'));
      set('managerDn', first(entry, 'manager'));
      const created = first(entry, 'createTimestamp');
      set('createdAt', created === undefined ? undefined : generalizedTime(created));
      const lastLogin = first(entry, 'pwdLastSuccess');
      set('lastLoginAt', lastLogin === undefined ? undefined : generalizedTime(lastLogin));
      const changed = first(entry, 'pwdChangedTime');
      set('passwordLastSetAt', changed === undefined ? undefined : generalizedTime(changed));
      // ppolicy's pwdReset: the password was set by an administrator and must be changed first.
      if (first(entry, 'pwdReset')?.toUpperCase() === 'TRUE') user.mustChangePassword = true;
      return user;
    },

    toGroup(entry: Entry): Promise<DirectoryGroup> {
      const classes = new Set(values(entry, 'objectClass').map((c) => c.toLowerCase()));
      const type = GROUP_CLASSES.find((c) => classes.has(c.toLowerCase()));
      const properties: Record<string, PropertyValue> = {};
      if (type !== undefined) properties.group_type = type;
      const gid = integer(first(entry, 'gidNumber'));
      if (gid !== undefined) properties.gid_number = gid;
      const group: DirectoryGroup = {
        id: required(entry, 'entryUUID', 'the id of the group'),
        dn: entry.dn,
        name: required(entry, 'cn', 'the name of the group'),
        // A uniqueMember value may end in a unique identifier (`#'0101'B`): it then names the holder
        // of that DN with that x500UniqueIdentifier, which the DN alone does not match
        // (uniqueMemberMatch). Kept whole, it matches no entry's DN, as slapd's own answers have it.
        memberDns: [...values(entry, 'member'), ...values(entry, 'uniqueMember')],
        memberUids: values(entry, 'memberUid'),
        properties,
      };
      const description = first(entry, 'description');
      if (description !== undefined) group.description = description;
      return Promise.resolve(group);
    },

    readDomain(_client, rootDse: Entry, baseDn: string): Promise<DirectoryDomain> {
      // The naming context that holds baseDn (the longest, should contexts nest).
      const base = normalizeDn(baseDn);
      const context =
        values(rootDse, 'namingContexts')
          .filter((nc) => isUnder(base, normalizeDn(nc)))
          .sort((a, b) => b.length - a.length)[0] ?? baseDn;
      return Promise.resolve({ namingContext: context, name: dnsName(context) });
    },
  };
}
