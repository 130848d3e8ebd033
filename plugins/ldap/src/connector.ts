/** The directory connector: users, nested groups, managers and account state -> `identity_provider` payload. */
import {
  CONNECTOR_API_VERSION,
  defineConnector,
  OaaError,
  type ConnectorContext,
  type IdentityProviderPayload,
  type PropertyType,
  type Streamable,
} from '@oaakit/core';
import type { Entry } from 'ldapts';
import { customProperties, ldapConfigSchema, PASSWORD_SECRET, type LdapConfig } from './config.js';
import { assertPaging, baseDnOf, connect, detectFlavor, readRootDse, type Connection } from './connection.js';
import { normalizeDn } from './dn.js';
import { values } from './entry-values.js';
import type { LdapErrorCode } from './error-codes.js';
import type { DirectoryDomain, DirectoryFlavor, DirectoryGroup, DirectoryUser } from './flavor.js';
import { flavorFor } from './flavors.js';
import { GroupIndex } from './groups.js';
import { ManagerIds } from './managers.js';
import { pagedSearch, readEntry } from './search.js';

type Ctx = ConnectorContext<LdapConfig, typeof PASSWORD_SECRET>;
type IdpUser = NonNullable<IdentityProviderPayload['users']>[number];
type IdpGroup = NonNullable<IdentityProviderPayload['groups']>[number];
type Properties = Record<string, string | number | boolean | string[]>;

/** Custom properties of every user, whatever the flavour. */
export const USER_PROPERTIES = {
  distinguished_name: 'STRING',
  principal_name: 'STRING',
  title: 'STRING',
  locked: 'BOOLEAN',
  created_at: 'TIMESTAMP',
  last_login_at: 'TIMESTAMP',
  password_last_set_at: 'TIMESTAMP',
  must_change_password: 'BOOLEAN',
} as const satisfies Record<string, PropertyType>;

/** Custom properties of every group, whatever the flavour. */
export const GROUP_PROPERTIES = {
  distinguished_name: 'STRING',
  description: 'STRING',
} as const satisfies Record<string, PropertyType>;

/** Custom properties of the domain. */
export const DOMAIN_PROPERTIES = {
  naming_context: 'STRING',
  sid: 'STRING',
  realm: 'STRING',
} as const satisfies Record<string, PropertyType>;

/** `idp_type` of the payload, per flavour: it names the graph's node types (`OAA.openldap.IdPUser`). */
export const IDP_TYPES = { openldap: 'openldap', 'active-directory': 'active_directory' } as const;

/** Longest string value the payload takes in a custom property. */
const MAX_PROPERTY_STRING = 4096;

/** A bound connection to the directory, with what the rootDSE said. */
interface Session {
  connection: Connection;
  rootDse: Entry;
  flavor: DirectoryFlavor;
  baseDn: string;
  userFilter: string;
  groupFilter: string;
}

async function openSession(ctx: Ctx): Promise<Session> {
  const { config } = ctx;
  const connection = await connect({
    config,
    password: ctx.secrets[PASSWORD_SECRET],
    baseDir: ctx.baseDir,
  });
  try {
    const rootDse = await readRootDse(connection);
    assertPaging(rootDse, connection.where);
    const flavor = flavorFor(detectFlavor(config, rootDse), { disabledAttribute: config.disabledAttribute });
    return {
      connection,
      rootDse,
      flavor,
      baseDn: baseDnOf(config, rootDse, connection.where),
      userFilter: config.userFilter ?? flavor.userFilter,
      groupFilter: config.groupFilter ?? flavor.groupFilter,
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/** The property definitions of users and groups; throws when a custom property would take a built-in name. */
function definitions(config: LdapConfig, flavor: DirectoryFlavor) {
  const custom = customProperties(config);
  const user: Record<string, PropertyType> = { ...USER_PROPERTIES, ...flavor.userProperties };
  const group: Record<string, PropertyType> = { ...GROUP_PROPERTIES, ...flavor.groupProperties };
  custom.forEach((p, i) => {
    const name = p.name.toLowerCase();
    const taken = [...Object.keys(user), ...Object.keys(group)].find((k) => k.toLowerCase() === name);
    if (taken !== undefined) {
      throw new OaaError<LdapErrorCode>(
        `customProperties[${i}] (${p.attribute}) would be copied to "${taken}", a property the connector sets itself`,
        {
          code: 'CUSTOM_PROPERTY_CLASH',
          details: { field: `customProperties[${i}]` },
          hints: [`name it otherwise: { "attribute": "${p.attribute}", "name": "..." }`],
        },
      );
    }
    user[p.name] = 'STRING_LIST';
    group[p.name] = 'STRING_LIST';
  });
  return { custom, user, group };
}

/** Copies the configured attributes of `entry` into `properties`, as lists of strings. */
function copyCustom(entry: Entry, custom: ReturnType<typeof customProperties>, properties: Properties): void {
  for (const p of custom) {
    const list = values(entry, p.attribute).map((v) => v.slice(0, MAX_PROPERTY_STRING));
    if (list.length > 0) properties[p.name] = list;
  }
}

function groupPayload(g: DirectoryGroup, parents: string[], custom: Properties): IdpGroup {
  const properties: Properties = { distinguished_name: g.dn };
  if (g.description !== undefined) properties.description = g.description.slice(0, MAX_PROPERTY_STRING);
  Object.assign(properties, g.properties, custom);
  return {
    name: g.name,
    identity: g.id,
    ...(g.isSecurityGroup === undefined ? {} : { is_security_group: g.isSecurityGroup }),
    ...(parents.length > 0 ? { groups: parents.map((identity) => ({ identity })) } : {}),
    custom_properties: properties,
  };
}

function userPayload(
  u: DirectoryUser,
  groups: string[],
  managerId: string | undefined,
  custom: Properties,
): IdpUser {
  const properties: Properties = { distinguished_name: u.dn, locked: u.locked === true };
  const optional: [keyof typeof USER_PROPERTIES, string | boolean | undefined][] = [
    ['principal_name', u.principalName],
    ['title', u.title],
    ['created_at', u.createdAt],
    ['last_login_at', u.lastLoginAt],
    ['password_last_set_at', u.passwordLastSetAt],
    ['must_change_password', u.mustChangePassword],
  ];
  for (const [name, value] of optional) if (value !== undefined) properties[name] = value;
  Object.assign(properties, u.properties, custom);
  return {
    name: u.login,
    identity: u.id,
    ...(u.email === undefined ? {} : { email: u.email }),
    ...(u.fullName === undefined ? {} : { full_name: u.fullName }),
    ...(u.department === undefined ? {} : { department: u.department }),
    is_active: u.active,
    ...(groups.length > 0 ? { groups: groups.map((identity) => ({ identity })) } : {}),
    ...(managerId === undefined ? {} : { manager_id: managerId }),
    custom_properties: properties,
  };
}

/** What one extract found along the way, logged when the users have been read. */
interface Notes {
  referrals: Set<string>;
}

/** Reads every group into the index, a page at a time. */
async function readGroups(ctx: Ctx, s: Session, notes: Notes, custom: ReturnType<typeof customProperties>) {
  const index = new GroupIndex();
  const customByDn = new Map<string, Properties>();
  const { flavor } = s;
  ctx.progress.start('groups');
  for await (const page of pagedSearch(s.connection.client, {
    what: 'groups',
    base: s.baseDn,
    filter: s.groupFilter,
    attributes: [...flavor.groupAttributes, ...custom.map((p) => p.attribute)],
    binaryAttributes: flavor.binaryAttributes,
    pageSize: ctx.config.pageSize,
    signal: ctx.signal,
    bindDn: ctx.config.bindDn,
    flavor: flavor.name,
    where: s.connection.where,
    onReferral: (url) => notes.referrals.add(url),
  })) {
    for (const entry of page) {
      index.add(await flavor.toGroup(entry, s.connection.client));
      if (custom.length > 0) {
        const props: Properties = {};
        copyCustom(entry, custom, props);
        if (Object.keys(props).length > 0) customByDn.set(normalizeDn(entry.dn), props);
      }
    }
    ctx.progress.tick(page.length);
  }
  index.finish();
  return { index, customByDn };
}

/** The users, a page at a time, each with its groups and manager resolved. */
async function* streamUsers(
  ctx: Ctx,
  s: Session,
  index: GroupIndex,
  notes: Notes,
  custom: ReturnType<typeof customProperties>,
  onAbort: () => void,
): AsyncGenerator<IdpUser> {
  const { flavor } = s;
  const managers = new ManagerIds(s.connection.client, flavor, normalizeDn(s.baseDn), s.userFilter);
  const groupIds = index.groups.map((g) => g.id);
  let users = 0;
  try {
    ctx.progress.start('users');
    for await (const page of pagedSearch(s.connection.client, {
      what: 'users',
      base: s.baseDn,
      filter: s.userFilter,
      attributes: [...flavor.userAttributes, ...custom.map((p) => p.attribute)],
      binaryAttributes: flavor.binaryAttributes,
      pageSize: ctx.config.pageSize,
      signal: ctx.signal,
      bindDn: ctx.config.bindDn,
      flavor: flavor.name,
      where: s.connection.where,
      onReferral: (url) => notes.referrals.add(url),
    })) {
      const mapped = page.map((entry) => ({ entry, user: flavor.toUser(entry) }));
      await managers.prepare(
        mapped.flatMap((m) => (m.user.managerDn === undefined ? [] : [m.user.managerDn])),
      );
      ctx.signal.throwIfAborted();
      for (const { entry, user } of mapped) {
        const groups = index.groupsOf(user.dn, user.login, user.implicitGroupSids).map((i) => groupIds[i]!);
        const managerId = user.managerDn === undefined ? undefined : managers.get(user.managerDn);
        const props: Properties = {};
        copyCustom(entry, custom, props);
        yield userPayload(user, groups, managerId, props);
      }
      users += page.length;
      ctx.progress.tick(page.length);
    }
    ctx.logger.info({ users, groups: index.size, managerLookups: managers.stats.lookups }, 'read the users');
    const { unresolved, outside, examples } = managers.stats;
    if (unresolved + outside > 0) {
      ctx.logger.warn(
        { unresolved, outsideBaseDn: outside, examples },
        'managers that are not users of this read were left out (manager_id unset)',
      );
    }
    if (notes.referrals.size > 0) {
      ctx.logger.warn(
        { referrals: [...notes.referrals].sort() },
        'the directory referred parts of the search to other servers; referrals are not followed, so their entries are not in the payload',
      );
    }
  } catch (error) {
    // Closing the connection on abort fails the read in flight: the abort is the cause.
    throw ctx.signal.aborted ? ctx.signal.reason : error;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await s.connection.close();
  }
}

/**
 * Reads a directory (OpenLDAP or Active Directory) into an `identity_provider` payload: users with
 * their account state, manager and groups, and groups with their nesting. Groups are read first
 * into an index; users then stream into the payload page by page.
 *
 * @example
 * // oaa config
 * { "connector": "ldap", "config": { "url": "ldaps://ldap.corp.example", "caFile": "corp-ca.pem",
 *   "bindDn": "cn=oaa-reader,ou=services,dc=corp,dc=example" } }
 * // secret "bindPassword": the password of the bind DN
 */
export const ldapConnector = defineConnector({
  id: 'ldap',
  version: '0.1.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'identity_provider',
  description: 'A directory (OpenLDAP or Active Directory): users, nested groups, managers and account state',
  configSchema: ldapConfigSchema,
  secrets: [
    {
      name: PASSWORD_SECRET,
      description: 'password of the bind DN (an account that may read users and groups)',
    },
  ],

  async check(ctx) {
    const s = await openSession(ctx);
    try {
      // The base exists and the bind account may search it: one entry of the user filter is enough.
      const probe = await readEntry(s.connection.client, s.baseDn, '(objectClass=*)', ['1.1'], []);
      if (probe === undefined) {
        throw new OaaError<LdapErrorCode>(
          `baseDn "${s.baseDn}" does not exist on ${s.connection.where}, or "${ctx.config.bindDn}" may not see it`,
          { code: 'BASE_DN_UNKNOWN', details: { field: 'baseDn' } },
        );
      }
      ctx.logger.info(
        { flavor: s.flavor.name, baseDn: s.baseDn, server: s.connection.where },
        'bound, and read the rootDSE',
      );
    } finally {
      await s.connection.close();
    }
  },

  async extract(ctx): Promise<Streamable<IdentityProviderPayload>> {
    const s = await openSession(ctx);
    const onAbort = (): void => void s.connection.close();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const notes: Notes = { referrals: new Set() };
    let domain: DirectoryDomain;
    let groups: IdpGroup[];
    let index: GroupIndex;
    let defs: ReturnType<typeof definitions>;
    try {
      defs = definitions(ctx.config, s.flavor);
      domain = await s.flavor.readDomain(s.connection.client, s.rootDse, s.baseDn);
      const read = await readGroups(ctx, s, notes, defs.custom);
      index = read.index;
      groups = index.groups.map((g, i) =>
        groupPayload(
          g,
          index.parents[i]!.map((p) => index.groups[p]!.id),
          read.customByDn.get(normalizeDn(g.dn)) ?? {},
        ),
      );
      ctx.logger.info({ groups: groups.length, flavor: s.flavor.name, baseDn: s.baseDn }, 'read the groups');
      if (index.cycles.length > 0) {
        ctx.logger.warn(
          { cycles: index.cycles },
          'group nesting has cycles: the memberships that close them are left out of the nesting, and the ' +
            "members of each cycle's groups are also put in its entry group, so transitive membership is unchanged",
        );
      }
    } catch (error) {
      ctx.signal.removeEventListener('abort', onAbort);
      await s.connection.close();
      throw ctx.signal.aborted ? ctx.signal.reason : error;
    }
    const domainProperties: Properties = { naming_context: domain.namingContext };
    if (domain.sid !== undefined) domainProperties.sid = domain.sid;
    if (domain.realm !== undefined) domainProperties.realm = domain.realm;
    const users = streamUsers(ctx, s, index, notes, defs.custom, onAbort);
    return {
      name: domain.name,
      idp_type: IDP_TYPES[s.flavor.name],
      custom_property_definition: {
        domain_properties: { ...DOMAIN_PROPERTIES },
        user_properties: defs.user,
        group_properties: defs.group,
      },
      domains: [{ name: domain.name, custom_properties: domainProperties }],
      groups,
      users,
    };
  },
});
