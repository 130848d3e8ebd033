/**
 * The Active Directory fixture, loaded over LDAPS as the domain's Administrator into a
 * {@link SambaServer}:
 *
 * - people with managers (alice leads bob, who leads carol, dave, grace and heidi);
 * - account states: erin is disabled (userAccountControl 514), frank's accountExpires has passed,
 *   judy's lies in the future, heidi is locked out (three wrong passwords under a password settings
 *   object that applies to her alone, so no other account ever locks), ivan must change his
 *   password (pwdLastSet 0);
 * - grace's primary group is Contractors rather than Domain Users;
 * - nested groups with a cycle (Engineering > Backend > Platform > Engineering), a domain local
 *   group holding global ones, a universal distribution group, and an empty group;
 * - Alumni, a group of 1,600 former employees (disabled accounts), more than one 1,500-value range;
 * - svc-oaa, the connector's least-privilege bind account: an ordinary domain user, in no group but
 *   Domain Users, with no delegated rights; and svc-retired, a disabled one.
 */
import { Attribute, Change, Client, InvalidCredentialsError } from 'ldapts';
import { dateToFiletime } from '../ad-values.js';
import { BASE_DN, strongPassword, type SambaServer } from './samba-server.js';

/** Members of the Alumni group: more than AD's 1,500 values per range. */
export const ALUMNI_COUNT = 1600;

export const GROUP_TYPE = {
  globalSecurity: '-2147483646',
  domainLocalSecurity: '-2147483644',
  universalSecurity: '-2147483640',
  universalDistribution: '8',
} as const;

const UAC_NORMAL = 512;
const UAC_DISABLED = 2;
const UAC_DONT_EXPIRE_PASSWORD = 0x1_0000;

/** A person of the fixture, and what the directory should say of them. */
export interface FixturePerson {
  readonly sam: string;
  readonly dn: string;
  readonly password: string;
  readonly fullName: string;
  readonly manager?: string;
  /** What a simple bind with the right password answers: success, or AD's `data` code. */
  readonly bind: 'ok' | '533' | '701' | '773' | '775';
}

export interface AdFixture {
  /** The least-privilege bind account (svc-oaa). */
  readonly bindDn: string;
  readonly bindPassword: string;
  /** A disabled bind account (svc-retired), with its right password. */
  readonly disabledBindDn: string;
  readonly disabledBindPassword: string;
  /** The people, by sAMAccountName. */
  readonly people: Readonly<Record<string, FixturePerson>>;
  /** Group DNs by name. */
  readonly groups: Readonly<Record<GroupName, string>>;
  /** The DNs of Alumni's members. */
  readonly alumniDns: readonly string[];
  /** Seconds the load took. */
  readonly loadSeconds: number;
}

type GroupName =
  | 'Engineering'
  | 'Backend'
  | 'Platform'
  | 'Contractors'
  | 'Building Access'
  | 'All Staff'
  | 'Sales'
  | 'Alumni'
  | 'Auditors';

const OU = {
  people: `OU=People,${BASE_DN}`,
  groups: `OU=Groups,${BASE_DN}`,
  service: `OU=Service Accounts,${BASE_DN}`,
  alumni: `OU=Alumni,${BASE_DN}`,
};

const GROUPS: Record<GroupName, { type: string; description?: string }> = {
  Engineering: { type: GROUP_TYPE.globalSecurity, description: 'Everyone who builds the product' },
  Backend: { type: GROUP_TYPE.globalSecurity },
  Platform: { type: GROUP_TYPE.globalSecurity },
  Contractors: { type: GROUP_TYPE.globalSecurity, description: 'Primary group of contract staff' },
  'Building Access': { type: GROUP_TYPE.domainLocalSecurity },
  'All Staff': { type: GROUP_TYPE.universalDistribution, description: 'Mailing list' },
  Sales: { type: GROUP_TYPE.globalSecurity },
  Alumni: { type: GROUP_TYPE.universalSecurity, description: 'Former employees' },
  Auditors: { type: GROUP_TYPE.globalSecurity, description: 'No members yet' },
};

interface PersonSpec {
  sam: string;
  given: string;
  sn: string;
  /** Left out for dave: the full name then comes from cn. */
  displayName?: boolean;
  department: string;
  title: string;
  manager?: string;
  uac?: number;
  accountExpires?: Date;
  mustChangePassword?: boolean;
  bind: FixturePerson['bind'];
}

const PEOPLE: PersonSpec[] = [
  {
    sam: 'alice',
    given: 'Alice',
    sn: 'Archer',
    department: 'Executive',
    title: 'Chief Executive',
    bind: 'ok',
  },
  {
    sam: 'bob',
    given: 'Bob',
    sn: 'Baker',
    department: 'Engineering',
    title: 'VP Engineering',
    manager: 'alice',
    bind: 'ok',
  },
  {
    sam: 'carol',
    given: 'Carol',
    sn: 'Chen',
    department: 'Engineering',
    title: 'Engineer',
    manager: 'bob',
    bind: 'ok',
  },
  {
    sam: 'dave',
    given: 'Dave',
    sn: 'Diaz',
    displayName: false,
    department: 'Engineering',
    title: 'Engineer',
    manager: 'bob',
    bind: 'ok',
  },
  {
    sam: 'erin',
    given: 'Erin',
    sn: 'Evans',
    department: 'Sales',
    title: 'Account Executive',
    manager: 'alice',
    uac: UAC_NORMAL | UAC_DISABLED,
    bind: '533',
  },
  {
    sam: 'frank',
    given: 'Frank',
    sn: 'Fischer',
    department: 'Sales',
    title: 'Sales Engineer',
    manager: 'erin',
    accountExpires: new Date('2020-01-01T00:00:00Z'),
    bind: '701',
  },
  {
    sam: 'grace',
    given: 'Grace',
    sn: 'Green',
    department: 'Engineering',
    title: 'Contractor',
    manager: 'bob',
    bind: 'ok',
  },
  {
    sam: 'heidi',
    given: 'Heidi',
    sn: 'Hoffmann',
    department: 'Engineering',
    title: 'Engineer',
    manager: 'bob',
    bind: '775',
  },
  {
    sam: 'ivan',
    given: 'Ivan',
    sn: 'Ivanov',
    department: 'Support',
    title: 'Support Engineer',
    manager: 'alice',
    mustChangePassword: true,
    bind: '773',
  },
  {
    sam: 'judy',
    given: 'Judy',
    sn: 'Jones',
    department: 'Sales',
    title: 'Intern',
    manager: 'erin',
    accountExpires: new Date('2099-01-01T00:00:00Z'),
    bind: 'ok',
  },
];

/** Direct members of each group: people by sAMAccountName, groups by name. */
const MEMBERS: Partial<Record<GroupName, { people?: string[]; groups?: GroupName[] }>> = {
  Engineering: { people: ['bob'], groups: ['Backend'] },
  Backend: { people: ['carol', 'heidi'], groups: ['Platform'] },
  // Closes the cycle Engineering > Backend > Platform > Engineering.
  Platform: { people: ['dave'], groups: ['Engineering'] },
  'Building Access': { groups: ['Contractors', 'Engineering'] },
  'All Staff': { people: ['alice', 'bob', 'erin', 'ivan'], groups: ['Engineering'] },
  Sales: { people: ['erin', 'frank', 'judy'] },
};

/** AD's unicodePwd: the password in double quotes, UTF-16LE. */
function unicodePwd(password: string): Buffer {
  return Buffer.from(`"${password}"`, 'utf16le');
}

/** An entry's attributes for an add, where a value may be binary (unicodePwd). */
function attributes(record: Record<string, string | string[] | Buffer>): Attribute[] {
  return Object.entries(record).map(
    ([type, v]) => new Attribute({ type, values: Buffer.isBuffer(v) ? [v] : Array.isArray(v) ? v : [v] }),
  );
}

const cnOf = (p: PersonSpec) => `${p.given} ${p.sn}`;

function addValues(type: string, values: string[]): Change[] {
  return [new Change({ operation: 'add', modification: new Attribute({ type, values }) })];
}

async function failBinds(url: string, dn: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const client = new Client({ url });
    try {
      await client.bind(dn, 'not-the-password');
      throw new Error(`${dn}: a wrong password was accepted`);
    } catch (error) {
      if (!(error instanceof InvalidCredentialsError)) throw error;
    } finally {
      await client.unbind();
    }
  }
}

/** Loads the fixture; about 1,650 adds. */
export async function loadAdFixture(server: SambaServer): Promise<AdFixture> {
  const started = process.hrtime.bigint();
  const admin: Client = await server.connectAsAdmin();
  try {
    for (const ou of Object.values(OU)) await admin.add(ou, { objectClass: ['top', 'organizationalUnit'] });

    const groups = {} as Record<GroupName, string>;
    for (const [name, spec] of Object.entries(GROUPS) as [GroupName, (typeof GROUPS)[GroupName]][]) {
      const dn = `CN=${name},${OU.groups}`;
      await admin.add(dn, {
        objectClass: ['top', 'group'],
        sAMAccountName: name.replace(/ /g, '-'),
        groupType: spec.type,
        ...(spec.description !== undefined && { description: spec.description }),
      });
      groups[name] = dn;
    }

    const people: Record<string, FixturePerson> = {};
    for (const p of PEOPLE) {
      const dn = `CN=${cnOf(p)},${OU.people}`;
      const password = strongPassword();
      const manager = p.manager === undefined ? undefined : people[p.manager]!.dn;
      await admin.add(
        dn,
        attributes({
          objectClass: ['top', 'person', 'organizationalPerson', 'user'],
          sAMAccountName: p.sam,
          userPrincipalName: `${p.sam}@corp.example`,
          givenName: p.given,
          sn: p.sn,
          ...(p.displayName !== false && { displayName: `${cnOf(p)}` }),
          mail: `${p.sam}@corp.example`,
          department: p.department,
          title: p.title,
          ...(manager !== undefined && { manager }),
          unicodePwd: unicodePwd(password),
          userAccountControl: String(p.uac ?? UAC_NORMAL),
          ...(p.accountExpires !== undefined && { accountExpires: String(dateToFiletime(p.accountExpires)) }),
          ...(p.mustChangePassword === true && { pwdLastSet: '0' }),
        }),
      );
      people[p.sam] = {
        sam: p.sam,
        dn,
        password,
        fullName: cnOf(p),
        ...(p.manager !== undefined && { manager: p.manager }),
        bind: p.bind,
      };
    }

    const service = async (sam: string, disabled: boolean) => {
      const dn = `CN=${sam},${OU.service}`;
      const password = strongPassword();
      await admin.add(
        dn,
        attributes({
          objectClass: ['top', 'person', 'organizationalPerson', 'user'],
          sAMAccountName: sam,
          userPrincipalName: `${sam}@corp.example`,
          description: disabled ? 'Retired directory reader' : 'Directory reader for oaakit',
          unicodePwd: unicodePwd(password),
          userAccountControl: String(UAC_NORMAL | UAC_DONT_EXPIRE_PASSWORD | (disabled ? UAC_DISABLED : 0)),
        }),
      );
      return { dn, password };
    };
    const reader = await service('svc-oaa', false);
    const retired = await service('svc-retired', true);

    for (const [name, m] of Object.entries(MEMBERS) as [
      GroupName,
      NonNullable<(typeof MEMBERS)[GroupName]>,
    ][]) {
      const dns = [
        ...(m.people ?? []).map((sam) => people[sam]!.dn),
        ...(m.groups ?? []).map((g) => groups[g]),
      ];
      await admin.modify(groups[name], addValues('member', dns));
    }

    // grace: member of Contractors, which then becomes her primary group. AD moves her from
    // Contractors' member list to Domain Users' when it does.
    await admin.modify(groups.Contractors, addValues('member', [people.grace!.dn]));
    const { searchEntries } = await admin.search(groups.Contractors, {
      scope: 'base',
      attributes: ['primaryGroupToken'],
    });
    const rid = searchEntries[0]?.primaryGroupToken;
    if (typeof rid !== 'string') throw new Error('Contractors has no primaryGroupToken');
    await admin.modify(people.grace!.dn, [
      new Change({
        operation: 'replace',
        modification: new Attribute({ type: 'primaryGroupID', values: [rid] }),
      }),
    ]);

    // Former employees: accounts without a password, which AD creates disabled (514 + 0x20).
    const alumniDns: string[] = [];
    for (let i = 1; i <= ALUMNI_COUNT; i++) {
      const sam = `alum${String(i).padStart(4, '0')}`;
      const dn = `CN=${sam},${OU.alumni}`;
      await admin.add(dn, {
        objectClass: ['top', 'person', 'organizationalPerson', 'user'],
        sAMAccountName: sam,
        displayName: `Alumnus ${i}`,
      });
      alumniDns.push(dn);
    }
    await admin.modify(groups.Alumni, addValues('member', alumniDns));

    // heidi locks out after three wrong passwords, under a policy that applies to her alone.
    await admin.add(`CN=Lock After Three,CN=Password Settings Container,CN=System,${BASE_DN}`, {
      objectClass: 'msDS-PasswordSettings',
      'msDS-PasswordSettingsPrecedence': '10',
      'msDS-PasswordReversibleEncryptionEnabled': 'FALSE',
      'msDS-PasswordHistoryLength': '0',
      'msDS-PasswordComplexityEnabled': 'TRUE',
      'msDS-MinimumPasswordLength': '7',
      'msDS-MinimumPasswordAge': '0',
      'msDS-MaximumPasswordAge': '-9223372036854775808',
      'msDS-LockoutThreshold': '3',
      // Thirty minutes, in 100 ns ticks, negative as AD writes intervals.
      'msDS-LockoutObservationWindow': '-18000000000',
      'msDS-LockoutDuration': '-18000000000',
      'msDS-PSOAppliesTo': people.heidi!.dn,
    });
    await failBinds(server.url, people.heidi!.dn, 3);

    return {
      bindDn: reader.dn,
      bindPassword: reader.password,
      disabledBindDn: retired.dn,
      disabledBindPassword: retired.password,
      people,
      groups,
      alumniDns,
      loadSeconds: Number(process.hrtime.bigint() - started) / 1e9,
    };
  } finally {
    await admin.unbind();
  }
}
