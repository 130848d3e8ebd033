/**
 * Loads the fixture directory (`plugins/ldap/fixtures/openldap/*.ldif`) into a test server: the
 * branches, the password policy and the bind account, the named people, then 560 generated staff
 * (more than OpenLDAP's default size limit of 500, so the reads must page), then the groups with
 * the staff added to their teams. Every account gets a fresh random password; then the loader
 * makes the binds that set ppolicy state: three wrong passwords lock nkowalski out, and a
 * successful bind of a few people sets their pwdLastSuccess.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { InvalidCredentialsError } from 'ldapts';
import { normalizeDn } from '../dn.js';
import { READER_DN, SUFFIX, type SlapdServer } from './slapd-server.js';

const FIXTURES = new URL('../../fixtures/openldap/', import.meta.url);
const PEOPLE = `ou=people,${SUFFIX}`;
const GROUPS = `ou=groups,${SUFFIX}`;

/** The teams the generated staff work in: group, department, title, lead, and how many. */
export const TEAMS = [
  { group: 'backend', department: 'Engineering', title: 'Backend Engineer', lead: 'cwei', size: 120 },
  { group: 'frontend', department: 'Engineering', title: 'Frontend Engineer', lead: 'falsayed', size: 100 },
  { group: 'sre', department: 'Engineering', title: 'Site Reliability Engineer', lead: 'lbecker', size: 60 },
  { group: 'sales', department: 'Sales', title: 'Account Executive', lead: 'pnatarajan', size: 110 },
  { group: 'finance', department: 'Finance', title: 'Accountant', lead: 'tlindqvist', size: 50 },
  { group: 'people-ops', department: 'People Operations', title: 'HR Partner', lead: 'atanaka', size: 40 },
  { group: 'support', department: 'Support', title: 'Support Engineer', lead: 'sosei', size: 80 },
] as const;

/** Users that logged in once after the load (they have a pwdLastSuccess). */
export const SIGNED_IN = ['mokafor', 'dreyes', 'cwei'] as const;
/** The user the loader locks out with three wrong passwords. */
export const LOCKED_OUT = 'nkowalski';

const FIRST = [
  'Amara',
  'Bruno',
  'Chloe',
  'Dmitri',
  'Esther',
  'Farid',
  'Greta',
  'Hiro',
  'Ines',
  'Jamal',
  'Kaia',
  'Leon',
  'Mina',
  'Nils',
  'Olga',
  'Pablo',
  'Qiu',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wanda',
  'Xavier',
  'Yara',
  'Zane',
];
const LAST = [
  'Abbott',
  'Bauer',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ivanova',
  'Jensen',
  'Kim',
  'Lopez',
  'Moreau',
  'Novak',
  'Ortiz',
  'Park',
  'Quinn',
  'Rossi',
  'Silva',
  'Thompson',
  'Ueda',
  'Varga',
  'Wagner',
];

/** One generated staff member. */
export interface StaffMember {
  uid: string;
  dn: string;
  team: (typeof TEAMS)[number];
}

/** The generated staff, the same at every load. */
export function staff(): StaffMember[] {
  const out: StaffMember[] = [];
  let n = 0;
  for (const team of TEAMS) {
    for (let i = 0; i < team.size; i++, n++) {
      const first = FIRST[n % FIRST.length]!;
      const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
      const uid = `${first[0]}${last}${n}`.toLowerCase();
      out.push({ uid, dn: `uid=${uid},${PEOPLE}`, team });
    }
  }
  return out;
}

function staffLdif(members: StaffMember[]): string {
  return members
    .map((m, n) => {
      const first = FIRST[n % FIRST.length]!;
      const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
      return [
        `dn: ${m.dn}`,
        'objectClass: inetOrgPerson',
        `uid: ${m.uid}`,
        `cn: ${first} ${last}`,
        `sn: ${last}`,
        `givenName: ${first}`,
        `displayName: ${first} ${last}`,
        `mail: ${m.uid}@corp.example`,
        `title: ${m.team.title}`,
        `departmentNumber: ${m.team.department}`,
        `employeeNumber: ${2000 + n}`,
        `manager: uid=${m.team.lead},${PEOPLE}`,
        'userPassword: @PASSWORD@',
        '',
      ].join('\n');
    })
    .join('\n');
}

/** Staff added to groups besides their team: the first ten SREs are on call, engineers are developers. */
function membershipLdif(members: StaffMember[]): string {
  const changes: string[] = [];
  for (const team of TEAMS) {
    const dns = members.filter((m) => m.team === team).map((m) => `member: ${m.dn}`);
    changes.push(`dn: cn=${team.group},${GROUPS}\nchangetype: modify\nadd: member\n${dns.join('\n')}\n`);
  }
  const sre = members.filter((m) => m.team.group === 'sre').slice(0, 10);
  changes.push(
    `dn: cn=on-call,${GROUPS}\nchangetype: modify\nadd: member\n${sre.map((m) => `member: ${m.dn}`).join('\n')}\n`,
  );
  const engineers = members.filter((m) => m.team.department === 'Engineering').slice(0, 100);
  changes.push(
    `dn: cn=developers,${GROUPS}\nchangetype: modify\nadd: memberUid\n${engineers.map((m) => `memberUid: ${m.uid}`).join('\n')}\n`,
  );
  return changes.join('\n');
}

/** What the loader made. */
export interface FixtureDirectory {
  /** The connector's bind account and its password. */
  readerDn: string;
  readerPassword: string;
  /** Every account's password, by DN as written in the fixtures. */
  passwords: Map<string, string>;
  /** The password of the account `dn` (in any case and escaping), if it has one. */
  passwordOf(dn: string): string | undefined;
  /** The generated staff. */
  staff: StaffMember[];
}

/** Replaces each `@PASSWORD@` with a fresh password, noting it under the entry's DN. */
function withPasswords(ldif: string, passwords: Map<string, string>): string {
  let dn = '';
  return ldif
    .split('\n')
    .map((line) => {
      if (line.startsWith('dn: ')) dn = line.slice(4);
      if (line !== 'userPassword: @PASSWORD@') return line;
      const password = randomBytes(9).toString('hex');
      passwords.set(dn, password);
      return `userPassword: ${password}`;
    })
    .join('\n');
}

async function fixture(name: string): Promise<string> {
  return readFile(new URL(name, FIXTURES), 'utf8');
}

/** Loads the fixture directory into `server` (which must be empty). */
export async function loadFixtureDirectory(server: SlapdServer): Promise<FixtureDirectory> {
  const passwords = new Map<string, string>();
  const members = staff();
  await server.ldapAdd(withPasswords(await fixture('00-base.ldif'), passwords));
  await server.ldapAdd(withPasswords(await fixture('10-people.ldif'), passwords));
  await server.ldapAdd(withPasswords(staffLdif(members), passwords));
  await server.ldapAdd(await fixture('20-groups.ldif'));
  await server.ldapModify(membershipLdif(members));
  // An administrator reset Ivan's password: he must change it at his next bind.
  await server.ldapModify(
    `dn: uid=ihorvat,${PEOPLE}\nchangetype: modify\nreplace: pwdReset\npwdReset: TRUE\n`,
  );

  const bind = async (dn: string, password: string): Promise<void> => {
    const client = server.client();
    try {
      await client.bind(dn, password);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  };
  for (let i = 0; i < 3; i++) {
    await bind(`uid=${LOCKED_OUT},${PEOPLE}`, 'not-the-password').then(
      () => {
        throw new Error(`a wrong password bound as ${LOCKED_OUT}`);
      },
      (error: unknown) => {
        if (!(error instanceof InvalidCredentialsError)) throw error;
      },
    );
  }
  for (const uid of SIGNED_IN) await bind(`uid=${uid},${PEOPLE}`, passwords.get(`uid=${uid},${PEOPLE}`)!);

  const readerPassword = passwords.get(READER_DN);
  if (readerPassword === undefined) throw new Error(`the fixtures have no ${READER_DN}`);
  const byDn = new Map([...passwords].map(([dn, password]) => [normalizeDn(dn), password]));
  return {
    readerDn: READER_DN,
    readerPassword,
    passwords,
    passwordOf: (dn) => byDn.get(normalizeDn(dn)),
    staff: members,
  };
}
