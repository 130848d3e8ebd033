/**
 * The payload of the fixture directory, as a user of the access graph would check it: who each
 * person is, their manager, whether they can sign in, their groups (direct, nested, through
 * memberUid and uniqueMember), and what the connector reports about cycles, referrals and
 * managers it could not name.
 */
import { validate, type IdentityProviderPayload } from '@oaakit/core';
import type { Entry } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractAll, testContext } from './private-test-helpers/context.js';
import {
  loadFixtureDirectory,
  LOCKED_OUT,
  SIGNED_IN,
  TEAMS,
  type FixtureDirectory,
} from './private-test-helpers/fixture-directory.js';
import { startSlapd, type SlapdServer } from './private-test-helpers/slapd-server.js';
import type { LdapConfigInput } from './config.js';

type User = NonNullable<IdentityProviderPayload['users']>[number];
type Group = NonNullable<IdentityProviderPayload['groups']>[number];

let server: SlapdServer;
let fixtures: FixtureDirectory;
/** Every person entry as the administrator reads it, operational attributes included, by uid. */
let entries: Map<string, Entry>;

beforeAll(async () => {
  server = await startSlapd();
  fixtures = await loadFixtureDirectory(server);
  const admin = await server.adminClient();
  try {
    const { searchEntries } = await admin.search('dc=corp,dc=example', {
      filter: '(uid=*)',
      attributes: ['*', '+'],
      paged: { pageSize: 500 },
    });
    entries = new Map(searchEntries.map((e) => [String(e.uid), e]));
  } finally {
    await admin.unbind();
  }
});
afterAll(async () => {
  await server?.stop();
});

function config(extra: Partial<LdapConfigInput> = {}): LdapConfigInput {
  return { url: server.url, bindDn: fixtures.readerDn, ...extra };
}

async function extract(extra: Partial<LdapConfigInput> = {}) {
  const t = testContext(config(extra), fixtures.readerPassword);
  const payload = await extractAll(t);
  const users = new Map(payload.users!.map((u) => [u.name, u]));
  const groups = new Map(payload.groups!.map((g) => [g.name, g]));
  const groupNames = new Map(payload.groups!.map((g) => [g.identity!, g.name]));
  const groupsOf = (u: User | Group): string[] =>
    (u.groups ?? []).map((g) => groupNames.get(g.identity)!).sort();
  return { t, payload, users, groups, groupsOf };
}

/** An LDAP GeneralizedTime of whole seconds in UTC (`20240131235959Z`) in RFC 3339. */
function rfc3339(generalized: unknown): string {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(String(generalized));
  if (m === null) throw new Error(`not a whole-second GeneralizedTime: ${String(generalized)}`);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
}

function uuid(uid: string): string {
  return String(entries.get(uid)!.entryUUID);
}

describe('the payload of the fixture directory', () => {
  let read: Awaited<ReturnType<typeof extract>>;
  beforeAll(async () => {
    read = await extract({
      pageSize: 100,
      customProperties: ['employeeNumber', { attribute: 'objectClass', name: 'object_classes' }],
    });
  });

  it('holds every user and group, read in pages past the server default limit of 500', () => {
    expect(read.payload.users).toHaveLength(entries.size);
    expect(entries.size).toBe(579);
    expect(read.payload.groups).toHaveLength(18);
    // Six pages of at most 100 users, after one page of groups.
    const ticks = read.t.progress.filter((p) => p[0] === 'tick').map((p) => p[1]);
    expect(ticks).toEqual([18, 100, 100, 100, 100, 100, 79]);
    expect(read.payload).toMatchObject({
      name: 'corp.example',
      idp_type: 'openldap',
      domains: [{ name: 'corp.example', custom_properties: { naming_context: 'dc=corp,dc=example' } }],
    });
    const { errors } = validate('identity_provider', read.payload);
    expect(errors).toEqual([]);
  });

  it('maps a person: id, login, email, full name, department, title, manager and timestamps', () => {
    const dreyes = read.users.get('dreyes')!;
    const entry = entries.get('dreyes')!;
    expect(dreyes).toMatchObject({
      name: 'dreyes',
      identity: uuid('dreyes'),
      email: 'daniel.reyes@corp.example',
      full_name: 'Daniel Reyes',
      department: 'Engineering',
      is_active: true,
      manager_id: uuid('mokafor'),
      custom_properties: {
        distinguished_name: 'uid=dreyes,ou=people,dc=corp,dc=example',
        title: 'VP Engineering',
        locked: false,
        created_at: rfc3339(entry.createTimestamp),
        password_last_set_at: rfc3339(entry.pwdChangedTime),
        last_login_at: rfc3339(entry.pwdLastSuccess),
      },
    });
    // A display name in UTF-8; a cn holding a comma (its DN escapes it) when there is no displayName.
    expect(read.users.get('tlindqvist')!.full_name).toBe('Tomás Lindqvist');
    expect(read.users.get('sobrien')).toMatchObject({
      full_name: "O'Brien, Sean",
      custom_properties: { distinguished_name: "cn=O'Brien\\2C Sean,ou=people,dc=corp,dc=example" },
    });
  });

  it('has a last login only for those who signed in, from ppolicy pwdLastSuccess', () => {
    const signedIn = [...read.users.values()].filter((u) => u.custom_properties!.last_login_at !== undefined);
    expect(signedIn.map((u) => u.name).sort()).toEqual([...SIGNED_IN].sort());
    for (const uid of SIGNED_IN)
      expect(read.users.get(uid)!.custom_properties!.last_login_at).toBe(
        rfc3339(entries.get(uid)!.pwdLastSuccess),
      );
  });

  it("names each staff member's lead as manager, by the lead's user id", () => {
    for (const team of TEAMS) {
      const staff = [...read.users.values()].filter(
        (u) => u.custom_properties!.title === team.title && /\d$/.test(u.name),
      );
      expect(staff.length).toBeGreaterThanOrEqual(team.size);
      for (const u of staff) expect(u.manager_id).toBe(uuid(team.lead));
    }
  });

  it('leaves out a manager that is not a user (the CEO reports to a role entry), and says so', () => {
    expect(read.users.get('mokafor')!.manager_id).toBeUndefined();
    const warning = read.t.logs.find(
      (l) => l[0] === 'warn' && /managers that are not users/.test(l[1] ?? ''),
    );
    expect(warning?.[2]).toMatchObject({
      unresolved: 1,
      examples: ['cn=Board of Directors,ou=roles,dc=corp,dc=example'],
    });
  });

  it('marks locked accounts inactive and locked, with the lock time when ppolicy locked them', () => {
    // An administrator's permanent lock: no time to report.
    expect(read.users.get('jweber')).toMatchObject({ is_active: false, custom_properties: { locked: true } });
    expect(read.users.get('jweber')!.custom_properties).not.toHaveProperty('locked_at');
    // Three wrong passwords.
    expect(read.users.get(LOCKED_OUT)).toMatchObject({
      is_active: false,
      custom_properties: { locked: true, locked_at: rfc3339(entries.get(LOCKED_OUT)!.pwdAccountLockedTime) },
    });
    const inactive = [...read.users.values()].filter((u) => !u.is_active).map((u) => u.name);
    expect(inactive.sort()).toEqual(['jweber', LOCKED_OUT].sort());
    // ppolicy's pwdReset: the administrator set the password, to be changed at the next bind.
    expect(read.users.get('ihorvat')!.custom_properties!.must_change_password).toBe(true);
  });

  it('puts users in the groups that list them: member DNs in any case or escaping, uniqueMember, memberUid', () => {
    // "UID=mokafor, OU=People, ..." and "cn=O'Brien\2C Sean,..." name these entries.
    expect(read.groupsOf(read.users.get('mokafor')!)).toEqual(['executives']);
    expect(read.groupsOf(read.users.get('sobrien')!)).toEqual(['support']);
    // uniqueMember; a value with a unique identifier (#'0101'B) names an earlier holder of the DN.
    expect(read.groupsOf(read.users.get('zmartin')!)).toEqual(['vpn-contractors']);
    expect(read.groupsOf(read.users.get('jweber')!)).toEqual(['sales']);
    // posixGroups by login; the groups listed are the direct ones, nesting is the groups' own.
    expect(read.groupsOf(read.users.get('cwei')!)).toEqual(['backend', 'dba', 'developers']);
    expect(read.groupsOf(read.groups.get('backend')!)).toEqual(['engineering']);
    expect(read.groupsOf(read.groups.get('engineering')!)).toEqual(['all-staff']);
    expect(read.groupsOf(read.groups.get('vpn-contractors')!)).toEqual(['vpn-users']);
    expect(read.groups.get('developers')!.custom_properties).toMatchObject({
      group_type: 'posixGroup',
      gid_number: 5001,
    });
    // A member DN that names no entry (uid=former) is no one.
    expect(read.groupsOf(read.groups.get('sales')!)).toEqual(['all-staff']);
  });

  it('breaks the cycle of security-team, incident-response and on-call, and reports it', () => {
    const warning = read.t.logs.find((l) => l[0] === 'warn' && /group nesting has cycles/.test(l[1] ?? ''));
    const { cycles } = warning![2] as { cycles: { groups: string[]; dropped: string[][]; entry: string }[] };
    const cn = (dn: string): string => /^cn=([^,]+)/.exec(dn)![1]!;
    expect(cycles.map((c) => c.groups.map(cn))).toEqual([
      ['admins'],
      ['incident-response', 'on-call', 'security-team'],
    ]);
    expect(cycles.map((c) => c.dropped.map((d) => d.map(cn)))).toEqual([
      [['admins', 'admins']],
      [['security-team', 'incident-response']],
    ]);
    // The nesting kept: on-call in security-team in engineering; incident-response in on-call.
    expect(read.groupsOf(read.groups.get('security-team')!)).toEqual(['engineering']);
    expect(read.groupsOf(read.groups.get('on-call')!)).toEqual(['security-team']);
    expect(read.groupsOf(read.groups.get('incident-response')!)).toEqual(['on-call']);
    expect(read.groupsOf(read.groups.get('admins')!)).toEqual([]);
    // A member of security-team is put in the cycle's entry group too, from which it reaches all three.
    expect(cycles[1]!.entry).toBe('cn=incident-response,ou=groups,dc=corp,dc=example');
    expect(read.groupsOf(read.users.get('epetrova')!)).toEqual(['incident-response', 'security-team']);
  });

  it('lists the referral it did not follow', () => {
    const warning = read.t.logs.find((l) => l[0] === 'warn' && /referrals are not followed/.test(l[1] ?? ''));
    expect(warning?.[2]).toEqual({
      referrals: ['ldap://partners.corp.example/ou=partners,dc=corp,dc=example??sub'],
    });
  });

  it('copies customProperties as lists of strings', () => {
    expect(read.payload.custom_property_definition!.user_properties).toMatchObject({
      employeeNumber: 'STRING_LIST',
      object_classes: 'STRING_LIST',
    });
    expect(read.users.get('dreyes')!.custom_properties!.employeeNumber).toEqual(['1002']);
    expect(read.users.get('cwei')!.custom_properties!.object_classes).toEqual([
      'inetOrgPerson',
      'posixAccount',
    ]);
    expect(read.groups.get('developers')!.custom_properties!.object_classes).toEqual(['posixGroup']);
    // An entry without the attribute has no such property.
    expect(read.users.get('rhaddad')!.custom_properties).not.toHaveProperty('employeeNumber');
  });
});

describe('the disabled attribute', () => {
  it('nsAccountLock: "true" disables the account, ppolicy locks are then reported only', async () => {
    const { users } = await extract({ disabledAttribute: 'nsAccountLock' });
    const inactive = [...users.values()].filter((u) => !u.is_active).map((u) => u.name);
    expect(inactive).toEqual(['omendes']);
    expect(users.get('jweber')).toMatchObject({ is_active: true, custom_properties: { locked: true } });
  });

  it('shadowExpire: an account is inactive from the day it expires', async () => {
    const { users } = await extract({ disabledAttribute: 'shadowExpire' });
    const inactive = [...users.values()].filter((u) => !u.is_active).map((u) => u.name);
    expect(inactive).toEqual(['rhaddad']);
    expect(users.get('rhaddad')!.custom_properties!.expires_at).toBe('2022-01-08T00:00:00Z');
    expect(users.get('bcarter')).toMatchObject({
      is_active: true,
      custom_properties: { expires_at: '2243-10-16T00:00:00Z' },
    });
  });
});

describe('filters', () => {
  it('reads only the users and groups the filters select; a manager outside them is left out', async () => {
    const { users, groups, t } = await extract({
      userFilter: '(departmentNumber=Finance)',
      groupFilter: '(objectClass=posixGroup)',
    });
    const finance = [...entries.values()].filter((e) => e.departmentNumber === 'Finance');
    expect([...users.keys()].sort()).toEqual(finance.map((e) => String(e.uid)).sort());
    expect([...groups.keys()].sort()).toEqual(['dba', 'developers']);
    expect(users.get('omendes')!.manager_id).toBe(uuid('tlindqvist'));
    // The head of finance reports to the CEO, who is not in Finance.
    expect(users.get('tlindqvist')!.manager_id).toBeUndefined();
    const warning = t.logs.find((l) => l[0] === 'warn' && /managers that are not users/.test(l[1] ?? ''));
    expect(warning?.[2]).toMatchObject({
      unresolved: 1,
      examples: ['uid=mokafor,ou=people,dc=corp,dc=example'],
    });
  });
});
