import { describe, expect, it } from 'vitest';
import { customProperties, ldapConfigSchema } from './config.js';

const base = { url: 'ldaps://ldap.corp.example', bindDn: 'cn=oaa-reader,dc=corp,dc=example' };

/** The issues of an invalid config, as `path: message`. */
function problems(input: unknown): string[] {
  const parsed = ldapConfigSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('the config', () => {
  it('has defaults: flavor auto, pages of 500, a 30 s timeout, no custom properties', () => {
    expect(ldapConfigSchema.parse(base)).toEqual({
      ...base,
      startTls: false,
      flavor: 'auto',
      pageSize: 500,
      customProperties: [],
      timeoutMs: 30_000,
    });
  });

  it('names each bad field and what is allowed', () => {
    expect(problems({ ...base, url: 'https://ldap.corp.example' })).toEqual([
      'url: must be ldap://HOST[:PORT] or ldaps://HOST[:PORT], without a path',
    ]);
    expect(problems({ ...base, url: 'ldap://ldap.corp.example/dc=corp' })).toHaveLength(1);
    expect(problems({ ...base, pageSize: 1001 })).toEqual([
      'pageSize: Too big: expected number to be <=1000',
    ]);
    expect(problems({ ...base, flavor: 'novell' })[0]).toMatch(
      /^flavor: .*"openldap"\|"active-directory"\|"auto"/,
    );
    expect(problems({ ...base, userFilter: '(objectClass=person' })).toEqual([
      'userFilter: is not an LDAP filter (RFC 4515), e.g. "(objectClass=person)": Unbalanced parens: (objectClass=person. Full string: (objectClass=person',
    ]);
    expect(problems({ ...base, disabledAttribute: 'userAccountControl' })[0]).toMatch(/^disabledAttribute: /);
    expect(problems({ ...base, customProperties: ['has space'] })).toEqual([
      'customProperties.0: must be an attribute name (letters, digits, hyphens) or an OID',
    ]);
    expect(problems({ ...base, bindPassword: 'x' })[0]).toMatch(/Unrecognized key: "bindPassword"/);
  });

  it('refuses combinations that do not go together', () => {
    expect(problems({ ...base, startTls: true })).toEqual([
      'startTls: is for ldap:// URLs; an ldaps:// connection is TLS from the start',
    ]);
    expect(problems({ ...base, url: 'ldap://ldap.corp.example', caFile: 'ca.pem' })).toEqual([
      'caFile: is only used with TLS: use an ldaps:// URL or startTls: true',
    ]);
    expect(problems({ ...base, flavor: 'active-directory', disabledAttribute: 'nsAccountLock' })).toEqual([
      'disabledAttribute: is for OpenLDAP; Active Directory accounts are disabled by userAccountControl',
    ]);
  });

  it('names custom properties after their attributes, and refuses two of one name', () => {
    const config = ldapConfigSchema.parse({
      ...base,
      customProperties: [
        'employeeNumber',
        'extensionAttribute1',
        { attribute: 'extensionAttribute2', name: 'cost_center' },
      ],
    });
    expect(customProperties(config)).toEqual([
      { attribute: 'employeeNumber', name: 'employeeNumber' },
      { attribute: 'extensionAttribute1', name: 'extensionAttribute_' },
      { attribute: 'extensionAttribute2', name: 'cost_center' },
    ]);
    expect(problems({ ...base, customProperties: ['extensionAttribute1', 'extensionAttribute2'] })).toEqual([
      'customProperties.1: is copied to the property "extensionattribute_" as customProperties[0] is; name one with { attribute, name }',
    ]);
  });
});
