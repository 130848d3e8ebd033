/** The connector's config: which directory, how to reach and bind to it, and what to read. */
import { z } from '@oaakit/core';
import { FilterParser } from 'ldapts';

/** Name of the one declared secret: the password of `bindDn`. */
export const PASSWORD_SECRET = 'bindPassword';

/** The largest page the connector asks for: Active Directory's default `MaxPageSize`. */
export const MAX_PAGE_SIZE = 1000;

/** OpenLDAP attributes that can say an account may not sign in (see `disabledAttribute`). */
export const DISABLED_ATTRIBUTES = ['pwdAccountLockedTime', 'nsAccountLock', 'shadowExpire'] as const;
export type DisabledAttribute = (typeof DISABLED_ATTRIBUTES)[number];

/** An attribute description: a name (letters, digits, hyphens) or a numeric OID. */
const ATTRIBUTE = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)$/;
/** What a custom property name must look like once lower-cased (the payload's rule). */
const PROPERTY = /^[a-z][a-z_]*$/;

/** The custom property name an attribute is copied to when the config names none: `x-ray2` -> `x_ray_`. */
export function propertyNameOf(attribute: string): string {
  const name = attribute.replace(/[^A-Za-z]/g, '_');
  return /^[A-Za-z]/.test(name) ? name : `attr_${name}`;
}

function filter(what: 'userFilter' | 'groupFilter') {
  return z
    .string()
    .min(1)
    .superRefine((value, ctx) => {
      try {
        FilterParser.parseString(value);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `is not an LDAP filter (RFC 4515), e.g. "(objectClass=person)": ${(error as Error).message}`,
        });
      }
    })
    .optional()
    .describe(
      what === 'userFilter'
        ? 'LDAP filter of the user entries; default per flavor (OpenLDAP: inetOrgPerson or posixAccount ' +
            'entries with a uid; Active Directory: user objects that are people, not computers)'
        : 'LDAP filter of the group entries; default per flavor (OpenLDAP: groupOfNames, ' +
            'groupOfUniqueNames and posixGroup; Active Directory: group objects)',
    );
}

const attribute = z
  .string()
  .regex(ATTRIBUTE, 'must be an attribute name (letters, digits, hyphens) or an OID');

const customProperty = z.union([
  attribute.describe('the attribute to copy, to a property of its name'),
  z.strictObject({
    attribute: attribute.describe('the attribute to copy'),
    name: z
      .string()
      .refine((n) => PROPERTY.test(n.toLowerCase()), {
        error: 'must be letters and underscores, starting with a letter',
      })
      .optional()
      .describe('name of the custom property; default the attribute name with other characters as "_"'),
  }),
]);

/** Config of the directory connector, checked by the runner before `check` or `extract` runs. */
export const ldapConfigSchema = z
  .strictObject({
    url: z
      .string()
      .refine(
        (u) => {
          if (!/^ldaps?:\/\//i.test(u)) return false;
          try {
            const parsed = new URL(u);
            return parsed.hostname !== '' && (parsed.pathname === '' || parsed.pathname === '/');
          } catch {
            return false;
          }
        },
        { error: 'must be ldap://HOST[:PORT] or ldaps://HOST[:PORT], without a path' },
      )
      .describe('the directory server: ldap://host[:389] or ldaps://host[:636]'),
    startTls: z
      .boolean()
      .default(false)
      .describe('upgrade an ldap:// connection to TLS with StartTLS before binding'),
    caFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        'PEM file of the CA that signed the server certificate (ldaps:// or startTls); default the system CAs',
      ),
    bindDn: z
      .string()
      .min(1)
      .describe(
        `DN the connector binds as (its password is the secret "${PASSWORD_SECRET}"); ` +
          'an account that may read users and groups is enough',
      ),
    baseDn: z
      .string()
      .min(1)
      .optional()
      .describe(
        "where users and groups are searched (subtree); default the rootDSE's defaultNamingContext, " +
          'else its first namingContexts value',
      ),
    flavor: z
      .enum(['openldap', 'active-directory', 'auto'])
      .default('auto')
      .describe(
        'the directory product, whose attributes and rules the mapping follows; auto: Active Directory ' +
          "when the rootDSE's supportedCapabilities say so, else OpenLDAP",
      ),
    userFilter: filter('userFilter'),
    groupFilter: filter('groupFilter'),
    pageSize: z
      .int()
      .min(1)
      .max(MAX_PAGE_SIZE)
      .default(500)
      .describe(`entries per page of the paged searches (RFC 2696), at most ${MAX_PAGE_SIZE}`),
    disabledAttribute: z
      .enum(DISABLED_ATTRIBUTES)
      .optional()
      .describe(
        'OpenLDAP: the attribute that disables an account; pwdAccountLockedTime (ppolicy, the default): ' +
          'present means locked; nsAccountLock: "true" means disabled; shadowExpire: a day (since 1970) ' +
          'from which the account has expired',
      ),
    customProperties: z
      .array(customProperty)
      .default([])
      .describe(
        'attributes copied to each user and group as custom properties (a list of strings, every ' +
          'value): an attribute name, or { attribute, name } to pick the property name',
      ),
    timeoutMs: z
      .int()
      .min(1)
      .default(30_000)
      .describe('how long connecting, and each operation, may take, in milliseconds'),
  })
  .superRefine((c, ctx) => {
    if (c.startTls && /^ldaps:/i.test(c.url))
      ctx.addIssue({
        code: 'custom',
        path: ['startTls'],
        message: 'is for ldap:// URLs; an ldaps:// connection is TLS from the start',
      });
    if (c.caFile !== undefined && !c.startTls && !/^ldaps:/i.test(c.url))
      ctx.addIssue({
        code: 'custom',
        path: ['caFile'],
        message: 'is only used with TLS: use an ldaps:// URL or startTls: true',
      });
    if (c.disabledAttribute !== undefined && c.flavor === 'active-directory')
      ctx.addIssue({
        code: 'custom',
        path: ['disabledAttribute'],
        message: 'is for OpenLDAP; Active Directory accounts are disabled by userAccountControl',
      });
    const seen = new Map<string, number>();
    c.customProperties.forEach((p, i) => {
      const name = propertyOf(p).name.toLowerCase();
      const before = seen.get(name);
      if (before !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['customProperties', i],
          message: `is copied to the property "${name}" as customProperties[${before}] is; name one with { attribute, name }`,
        });
      else seen.set(name, i);
    });
  });

/** The parsed config (defaults applied). */
export type LdapConfig = z.infer<typeof ldapConfigSchema>;
/** The config as written in a config file (defaults optional). */
export type LdapConfigInput = z.input<typeof ldapConfigSchema>;

/** A configured custom property: the attribute read and the property it is copied to. */
export interface CustomProperty {
  attribute: string;
  name: string;
}

function propertyOf(p: string | { attribute: string; name?: string | undefined }): CustomProperty {
  return typeof p === 'string'
    ? { attribute: p, name: propertyNameOf(p) }
    : { attribute: p.attribute, name: p.name ?? propertyNameOf(p.attribute) };
}

/** The configured custom properties, each with its property name. */
export function customProperties(config: LdapConfig): CustomProperty[] {
  return config.customProperties.map(propertyOf);
}
