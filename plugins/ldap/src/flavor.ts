/**
 * What differs between directory products. The connector reads pages of entries and hands each one to
 * its flavour, which turns it into a directory-neutral user or group; the connector then resolves
 * membership, nesting and managers and writes the payload. OpenLDAP and Active Directory each
 * implement this interface in their own module.
 */
import type { PropertyType } from '@oaakit/core';
import type { Client, Entry } from 'ldapts';

/** The directory products the connector knows. `auto` in the config picks one from the rootDSE. */
export type FlavorName = 'openldap' | 'active-directory';

/** A custom property value as the payload carries it. */
export type PropertyValue = string | number | boolean | string[];

/** A user entry, mapped. Timestamps are ISO 8601 strings in UTC, converted exactly from the source. */
export interface DirectoryUser {
  /** Stable across renames: `entryUUID`, or AD `objectGUID` in its standard string form. */
  id: string;
  dn: string;
  /** `uid` or `sAMAccountName`. */
  login: string;
  /** `userPrincipalName`, when set. */
  principalName?: string;
  email?: string;
  /** `displayName`, else `cn`, else `givenName` + `sn`. */
  fullName?: string;
  department?: string;
  title?: string;
  /** The manager's DN, which the connector resolves to that user's id. */
  managerDn?: string;
  /** Can this account sign in now (not disabled, not expired)? Lockout does not count here. */
  active: boolean;
  /** Locked out (AD lockout, ppolicy lock), reported apart from `active`. */
  locked?: boolean;
  createdAt?: string;
  lastLoginAt?: string;
  passwordLastSetAt?: string;
  /** AD `pwdLastSet` of 0: the user must change the password at next sign-in. */
  mustChangePassword?: boolean;
  /**
   * Groups this user belongs to without being listed in their `member` attribute: AD's primary
   * group, as that group's SID (`primaryGroupID` appended to the domain SID).
   */
  implicitGroupSids?: string[];
  /** Flavour-specific custom properties (for example `objectSid`, `userAccountControl`). */
  properties: Record<string, PropertyValue>;
}

/** A group entry, mapped. */
export interface DirectoryGroup {
  /** Stable across renames, as for users. */
  id: string;
  dn: string;
  name: string;
  description?: string;
  /** AD: a security group rather than a distribution group. OpenLDAP: unset. */
  isSecurityGroup?: boolean;
  /** AD: the group's SID, which primary-group memberships name. */
  sid?: string;
  /** Members named by DN (`member`, `uniqueMember`): users or groups. Complete (range retrieval done). */
  memberDns: string[];
  /** Members named by login (`posixGroup`'s `memberUid`). */
  memberUids: string[];
  properties: Record<string, PropertyValue>;
}

/** The directory's domain: its naming context, and for AD its SID and realm. */
export interface DirectoryDomain {
  /** The naming context, for example `dc=corp,dc=example`. */
  namingContext: string;
  /** The DNS-style name, for example `corp.example`. */
  name: string;
  /** AD: the domain SID, for example `S-1-5-21-...`. */
  sid?: string;
  /** AD: the Kerberos realm. */
  realm?: string;
}

/** One directory product's rules. */
export interface DirectoryFlavor {
  readonly name: FlavorName;
  /** Default filters, used when the config does not set `userFilter` / `groupFilter`. */
  readonly userFilter: string;
  readonly groupFilter: string;
  /** Attributes to request for users and groups (the connector adds `customProperties`). */
  readonly userAttributes: readonly string[];
  readonly groupAttributes: readonly string[];
  /** Attributes that are binary and must be read as buffers (for example `objectGUID`, `objectSid`). */
  readonly binaryAttributes: readonly string[];
  /**
   * The type of each custom property `toUser` and `toGroup` may set in `properties`: the payload
   * declares them before its first user, which the connector writes while later pages are read.
   */
  readonly userProperties: Readonly<Record<string, PropertyType>>;
  readonly groupProperties: Readonly<Record<string, PropertyType>>;
  /** Maps a user entry; throws an error naming the DN and attribute when a required one is missing. */
  toUser(entry: Entry): DirectoryUser;
  /**
   * Maps a group entry. `client` is there for AD's ranged `member` values, which need further reads
   * of the same entry until the range ends in `*`.
   */
  toGroup(entry: Entry, client: Client): Promise<DirectoryGroup>;
  /** Reads the domain facts (naming context, and AD's SID and realm). */
  readDomain(client: Client, rootDse: Entry, baseDn: string): Promise<DirectoryDomain>;
}
