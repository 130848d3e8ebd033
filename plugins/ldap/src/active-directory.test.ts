/**
 * Everything that runs against Samba as an Active Directory domain controller. It is all in this
 * one file because Samba's LDAP ports are fixed (389, 636, 3268, 3269): two test files with a
 * Samba server each could not run at once.
 *
 * - The harness: the server serves the domain on loopback, fails naming whoever holds port 389,
 *   and dies with a test process that is killed.
 * - The mapping, on the payload read as the least-privilege bind account.
 * - Ranged retrieval of the 1,600 members of Alumni.
 * - The check of truth: every user's transitive groups in the pushed graph equal AD's own answer
 *   (tokenGroups and LDAP_MATCHING_RULE_IN_CHAIN for every user; the matching rule over every group,
 *   plus the primary group, for every account but the 1,600 alumni), and the account flags equal
 *   what a bind with each account's own password answers.
 * - check() naming a wrong password and a disabled bind account, the re-run, and the acceptance kit.
 *
 * Paging and range reads are written to hold on a real AD too: pages of at most 1,000 entries, and
 * the range loop runs until the server answers a range that ends in `*`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@oaakit/client';
import { OaaError, type IdentityProviderPayload } from '@oaakit/core';
import { startTestEmulator, until, type TestEmulator } from '@oaakit/emulator/testing';
import { StateStore, runConnector } from '@oaakit/runner';
import { runAcceptance } from '@oaakit/runner/testing';
import { Attribute, Change, Client, InvalidCredentialsError, type Entry } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AD_USER_FILTER } from './active-directory.js';
import type { LdapConfigInput } from './config.js';
import { AD_CAPABILITY } from './connection.js';
import ldapConnector from './index.js';
import { ALUMNI_COUNT, loadAdFixture, type AdFixture } from './private-test-helpers/ad-fixture.js';
import { extractAll, testContext } from './private-test-helpers/context.js';
import {
  BASE_DN,
  provisionSambaTemplate,
  startSambaServer,
  sweepLeftovers,
  type SambaServer,
  type SambaTemplate,
} from './private-test-helpers/samba-server.js';
import { RANGE_STEP, rangedAttribute, readRangedValues } from './ranged-values.js';

type IdpUser = NonNullable<IdentityProviderPayload['users']>[number];
type IdpGroup = NonNullable<IdentityProviderPayload['groups']>[number];

const IN_CHAIN = '1.2.840.113556.1.4.1941';

let template: SambaTemplate;
let domain: Promise<{ server: SambaServer; fixture: AdFixture }> | undefined;

/** The fixture domain, started and loaded on first use (after the harness tests, which need port 389). */
function theDomain(): Promise<{ server: SambaServer; fixture: AdFixture }> {
  return (domain ??= (async () => {
    const server = await startSambaServer(template);
    const fixture = await loadAdFixture(server);
    console.log(
      `Samba: provisioned in ${template.provisionSeconds.toFixed(1)} s, served LDAP ${server.startSeconds.toFixed(2)} s ` +
        `after its start, fixture loaded in ${fixture.loadSeconds.toFixed(1)} s`,
    );
    return { server, fixture };
  })());
}

beforeAll(async () => {
  template = await provisionSambaTemplate();
});
afterAll(async () => {
  const started = await domain?.catch(() => undefined);
  await started?.server.stop();
  await template?.remove();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether 127.0.0.1:`port` accepts a connection. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What a simple bind answers: `ok`, or AD's reason code (`data 533` is `533`). */
async function bindAnswer(url: string, dn: string, password: string): Promise<string> {
  const client = new Client({ url });
  try {
    await client.bind(dn, password);
    return 'ok';
  } catch (error) {
    if (!(error instanceof InvalidCredentialsError)) throw error;
    return /data ([0-9a-f]+)/.exec(error.message)?.[1] ?? error.message;
  } finally {
    await client.unbind();
  }
}

/** A client bound as `dn`; the caller unbinds it. */
async function boundAs(server: SambaServer, dn: string, password: string): Promise<Client> {
  const client = new Client({ url: server.url });
  await client.bind(dn, password);
  return client;
}

/** Every entry of a paged search (pages of 500, within AD's default MaxPageSize of 1,000). */
async function search(client: Client, base: string, filter: string, attributes: string[]): Promise<Entry[]> {
  const { searchEntries } = await client.search(base, { filter, attributes, paged: { pageSize: 500 } });
  return searchEntries;
}

/** `value` escaped for a filter (RFC 4515). */
function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function list(value: Entry[string] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

describe('the Samba domain controller of these tests', () => {
  it('serves the domain on 127.0.0.1 over LDAP and LDAPS with its own certificate, and is gone after stop', async () => {
    const server = await startSambaServer(template);
    try {
      const anonymous = new Client({ url: server.url });
      const { searchEntries } = await anonymous.search('', {
        scope: 'base',
        attributes: ['defaultNamingContext', 'supportedCapabilities'],
      });
      await anonymous.unbind();
      expect(searchEntries[0]?.defaultNamingContext).toBe(BASE_DN);
      expect(list(searchEntries[0]?.supportedCapabilities)).toContain(AD_CAPABILITY);
      const admin = await server.connectAsAdmin();
      await admin.unbind();
      // A client that does not trust the server's certificate is refused.
      const untrusting = new Client({ url: server.ldapsUrl });
      await expect(untrusting.bind(server.adminDn, server.adminPassword)).rejects.toThrow(/self-signed/);
    } finally {
      await server.stop();
    }
    expect(await answers(389)).toBe(false);
    await expect(access(server.dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails naming the process that holds port 389, and leaves that process alone', async () => {
    const holder = createServer();
    holder.listen(389, '127.0.0.1');
    await once(holder, 'listening');
    try {
      await expect(startSambaServer(template)).rejects.toThrow(
        new RegExp(`^port 389 on 127\\.0\\.0\\.1 is in use by pid ${process.pid} \\(`),
      );
      expect(holder.listening).toBe(true);
      expect(await answers(389)).toBe(true);
    } finally {
      holder.close();
      await once(holder, 'close');
    }
  });

  it('dies with a test process that is killed, and the next sweep removes its directory', async () => {
    // vite-node (vitest's TypeScript runner) runs the harness in a child process.
    const vitest = createRequire(import.meta.url).resolve('vitest/package.json');
    const viteNode = join(dirname(createRequire(vitest).resolve('vite-node/package.json')), 'vite-node.mjs');
    const script = fileURLToPath(new URL('./private-test-helpers/samba-until-killed.ts', import.meta.url));
    const child = spawn(process.execPath, [viteNode, script], {
      env: {
        ...process.env,
        OAAKIT_SAMBA_TEMPLATE: JSON.stringify({
          adminPassword: template.adminPassword,
          dir: template.dir,
          provisionSeconds: template.provisionSeconds,
        }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const line = await until('the child to start its server', () => out.includes('\n') && out, {
      timeoutMs: 120_000,
    });
    const { pid, dir } = JSON.parse(line) as { pid: number; dir: string };
    expect(await answers(389)).toBe(true);
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    // The kernel sent samba SIGKILL when its parent died.
    await until('samba to end with its parent', () => !alive(pid));
    expect(await answers(389)).toBe(false);
    expect(await sweepLeftovers()).toContain(dir);
  });
});

describe('Active Directory, read by the connector as the least-privilege bind account', () => {
  let server: SambaServer;
  let fixture: AdFixture;
  let payload: IdentityProviderPayload;
  let logs: unknown[];
  let users: Map<string, IdpUser>;
  let groups: Map<string, IdpGroup>;
  let admin: Client;
  /** When alice signed in, just before the read. */
  let signedIn: { from: number; to: number };

  beforeAll(async () => {
    ({ server, fixture } = await theDomain());
    const from = Date.now();
    expect(await bindAnswer(server.url, fixture.people.alice!.dn, fixture.people.alice!.password)).toBe('ok');
    signedIn = { from, to: Date.now() };
    const t = testContext(
      { url: server.url, bindDn: fixture.bindDn, pageSize: 1000 } satisfies LdapConfigInput,
      fixture.bindPassword,
    );
    payload = await extractAll(t);
    logs = t.logs;
    users = new Map(payload.users!.map((u) => [u.name, u]));
    groups = new Map(payload.groups!.map((g) => [g.name, g]));
    admin = await server.connectAsAdmin();
  });
  afterAll(async () => {
    await admin?.unbind();
  });

  /** The DN Samba finds at an extended DN such as `<GUID=...>` or `<SID=...>`. */
  async function dnAt(extended: string): Promise<string | undefined> {
    const { searchEntries } = await admin.search(extended, { scope: 'base', attributes: ['1.1'] });
    return searchEntries[0]?.dn;
  }

  async function raw(dn: string, attributes: string[]): Promise<Entry> {
    const { searchEntries } = await admin.search(dn, { scope: 'base', attributes });
    return searchEntries[0]!;
  }

  it('detects Active Directory from the rootDSE, and names the domain with its SID and realm', async () => {
    expect(payload.idp_type).toBe('active_directory');
    expect(payload.name).toBe('corp.example');
    const [d] = payload.domains!;
    expect(d).toMatchObject({
      name: 'corp.example',
      custom_properties: { naming_context: BASE_DN, realm: 'CORP.EXAMPLE' },
    });
    const sid = d!.custom_properties!.sid as string;
    expect(sid).toMatch(/^S-1-5-21-\d+-\d+-\d+$/);
    // Samba itself resolves the SID, written as the connector wrote it, to the domain.
    expect(await dnAt(`<SID=${sid}>`)).toBe(BASE_DN);
  });

  it('reads every person, and no computer', async () => {
    const people = await search(admin, BASE_DN, AD_USER_FILTER, ['sAMAccountName']);
    expect(payload.users).toHaveLength(people.length);
    // The fixture's 1,612 accounts, and the domain's own (Administrator, Guest, krbtgt).
    expect(people.length).toBeGreaterThanOrEqual(10 + 2 + ALUMNI_COUNT + 3);
    expect(users.has('DC1$')).toBe(false);
    const computers = await search(admin, BASE_DN, '(objectClass=computer)', ['sAMAccountName']);
    expect(computers.map((c) => String(c.sAMAccountName))).toContain('DC1$');
  });

  it('uses objectGUID in its standard form as the id, which Samba resolves back to the entry', async () => {
    for (const person of Object.values(fixture.people)) {
      const u = users.get(person.sam)!;
      expect(u.identity).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(await dnAt(`<GUID=${u.identity}>`)).toBe(person.dn);
      expect(await dnAt(`<SID=${u.custom_properties!.object_sid as string}>`)).toBe(person.dn);
    }
    const engineering = groups.get('Engineering')!;
    expect(await dnAt(`<GUID=${engineering.identity}>`)).toBe(fixture.groups.Engineering);
    expect(await dnAt(`<SID=${engineering.custom_properties!.object_sid as string}>`)).toBe(
      fixture.groups.Engineering,
    );
  });

  it('maps login, principal name, mail, full name, department, title and the manager', () => {
    expect(users.get('alice')).toMatchObject({
      name: 'alice',
      email: 'alice@corp.example',
      full_name: 'Alice Archer',
      department: 'Executive',
      custom_properties: {
        principal_name: 'alice@corp.example',
        sam_account_name: 'alice',
        title: 'Chief Executive',
        distinguished_name: fixture.people.alice!.dn,
      },
    });
    expect(users.get('alice')!.manager_id).toBeUndefined();
    // No displayName: the full name is the cn.
    expect(users.get('dave')!.full_name).toBe('Dave Diaz');
    for (const person of Object.values(fixture.people)) {
      if (person.manager === undefined) continue;
      expect(users.get(person.sam)!.manager_id).toBe(users.get(person.manager)!.identity);
    }
  });

  it('converts whenCreated, lastLogonTimestamp and pwdLastSet exactly', async () => {
    const alice = users.get('alice')!.custom_properties!;
    const stored = await raw(fixture.people.alice!.dn, ['whenCreated', 'lastLogonTimestamp', 'pwdLastSet']);
    // 20261128031810.0Z is 2026-11-28T03:18:10Z.
    const created = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)\.0Z$/.exec(String(stored.whenCreated))!;
    expect(alice.created_at).toBe(
      `${created[1]}-${created[2]}-${created[3]}T${created[4]}:${created[5]}:${created[6]}Z`,
    );
    // lastLogonTimestamp: alice's bind just before the read, to the 100 ns tick.
    const lastLogin = alice.last_login_at as string;
    expect(Date.parse(lastLogin)).toBeGreaterThanOrEqual(Math.floor(signedIn.from / 1000) * 1000);
    expect(Date.parse(lastLogin)).toBeLessThanOrEqual(signedIn.to);
    // Every digit of the 100 ns ticks is kept: the fraction is the ticks' last seven digits.
    const ticks = BigInt(String(stored.lastLogonTimestamp));
    const fraction = String(ticks % 10_000_000n)
      .padStart(7, '0')
      .replace(/0+$/, '');
    if (fraction === '') expect(lastLogin).toMatch(/:\d\dZ$/);
    else expect(lastLogin.endsWith(`.${fraction}Z`)).toBe(true);
    expect(Date.parse(alice.password_last_set_at as string)).toBe(
      Number((BigInt(String(stored.pwdLastSet)) - 116_444_736_000_000_000n) / 10_000n),
    );
    // Never signed in: no last login.
    expect(users.get('carol')!.custom_properties!.last_login_at).toBeUndefined();
  });

  it('reports disabled, expired, locked and must-change accounts as AD holds them', () => {
    const flags = (sam: string) => {
      const u = users.get(sam)!;
      const p = u.custom_properties!;
      return { active: u.is_active, locked: p.locked, mustChange: p.must_change_password ?? false };
    };
    expect(flags('alice')).toEqual({ active: true, locked: false, mustChange: false });
    expect(flags('erin')).toEqual({ active: false, locked: false, mustChange: false });
    expect(users.get('erin')!.custom_properties!.account_flags).toEqual(['ACCOUNTDISABLE', 'NORMAL_ACCOUNT']);
    expect(users.get('erin')!.custom_properties!.user_account_control).toBe(514);
    expect(flags('frank')).toEqual({ active: false, locked: false, mustChange: false });
    expect(users.get('frank')!.custom_properties!.account_expires_at).toBe('2020-01-01T00:00:00Z');
    expect(flags('judy')).toEqual({ active: true, locked: false, mustChange: false });
    expect(users.get('judy')!.custom_properties!.account_expires_at).toBe('2099-01-01T00:00:00Z');
    // Lockout is temporary and not a disabled account.
    expect(flags('heidi')).toEqual({ active: true, locked: true, mustChange: false });
    expect(users.get('heidi')!.custom_properties!.account_flags).toContain('LOCKOUT');
    expect(flags('ivan')).toEqual({ active: true, locked: false, mustChange: true });
    expect(users.get('ivan')!.custom_properties!.password_expired).toBe(true);
    expect(users.get('ivan')!.custom_properties!.password_last_set_at).toBeUndefined();
    expect(users.get('svc-retired')!.is_active).toBe(false);
    expect(users.get('svc-oaa')!.custom_properties!.account_flags).toEqual([
      'NORMAL_ACCOUNT',
      'DONT_EXPIRE_PASSWORD',
    ]);
    const alumni = [...users.values()].filter((u) => /^alum\d{4}$/.test(u.name));
    expect(alumni).toHaveLength(ALUMNI_COUNT);
    expect(alumni.every((u) => u.is_active === false)).toBe(true);
  });

  it('tells security groups from distribution groups, with their scope', () => {
    expect(groups.get('Engineering')).toMatchObject({
      is_security_group: true,
      custom_properties: { group_scope: 'global', system_group: false, sam_account_name: 'Engineering' },
    });
    expect(groups.get('All Staff')).toMatchObject({
      is_security_group: false,
      custom_properties: { group_scope: 'universal', description: 'Mailing list' },
    });
    expect(groups.get('Building Access')).toMatchObject({
      is_security_group: true,
      custom_properties: { group_scope: 'domain_local' },
    });
    // The Builtin groups are the system's own.
    expect(groups.get('Administrators')).toMatchObject({
      is_security_group: true,
      custom_properties: { group_scope: 'domain_local', system_group: true },
    });
  });

  it('counts the primary group as a membership, which memberOf does not list', async () => {
    const grace = users.get('grace')!;
    const names = (grace.groups ?? []).map(
      (g) => payload.groups!.find((x) => x.identity === g.identity)!.name,
    );
    expect(names).toContain('Contractors');
    const memberOf = list((await raw(fixture.people.grace!.dn, ['memberOf'])).memberOf);
    expect(memberOf).not.toContain(fixture.groups.Contractors);
    // Everyone else's primary group is Domain Users, listed in no member attribute either.
    const alice = (users.get('alice')!.groups ?? []).map(
      (g) => payload.groups!.find((x) => x.identity === g.identity)!.name,
    );
    expect(alice).toContain('Domain Users');
  });

  it('reports the nesting cycle and breaks it', () => {
    const warning = logs.find(
      (l) => Array.isArray(l) && typeof l[1] === 'string' && l[1].startsWith('group nesting has cycles'),
    ) as [string, string, { cycles: unknown }] | undefined;
    expect(warning).toBeDefined();
    expect(JSON.stringify(warning![2].cycles)).toMatch(/Engineering/);
  });

  it('holds all 1,600 members of Alumni, read in ranges', () => {
    const alumni = groups.get('Alumni')!.identity;
    const members = [...users.values()].filter((u) => (u.groups ?? []).some((g) => g.identity === alumni));
    expect(members).toHaveLength(ALUMNI_COUNT);
  });
});

describe('ranged retrieval of member on Samba', () => {
  let server: SambaServer;
  let fixture: AdFixture;
  let reader: Client;

  beforeAll(async () => {
    ({ server, fixture } = await theDomain());
    reader = await boundAs(server, fixture.bindDn, fixture.bindPassword);
  });
  afterAll(async () => {
    await reader?.unbind();
  });

  async function entry(dn: string, attribute: string): Promise<Entry> {
    const { searchEntries } = await reader.search(dn, { scope: 'base', attributes: [attribute] });
    return searchEntries[0]!;
  }

  it('is needed: Samba sends all 1,600 values of a plain member read, unsplit, unlike AD', async () => {
    const whole = await entry(fixture.groups.Alumni, 'member');
    expect(list(whole.member)).toHaveLength(ALUMNI_COUNT);
    expect(Object.keys(whole).filter((k) => k.includes(';range='))).toEqual([]);
  });

  it('reads every member in 1,500-value ranges, until the range ends in *', async () => {
    const first = await entry(fixture.groups.Alumni, rangedAttribute('member'));
    expect(list(first['member;range=0-1499'])).toHaveLength(RANGE_STEP);
    const reads: number[] = [];
    const values = await readRangedValues(reader, first, 'member', { onRead: (n) => reads.push(n) });
    expect(values).toHaveLength(ALUMNI_COUNT);
    expect(new Set(values.map((v) => v.toLowerCase()))).toEqual(
      new Set(fixture.alumniDns.map((v) => v.toLowerCase())),
    );
    // One further read, for 1500-2999, answered 1500-*.
    expect(reads).toEqual([RANGE_STEP]);
  });

  it('follows smaller ranges, whatever size the server answers', async () => {
    const first = await entry(fixture.groups.Alumni, rangedAttribute('member', 0, 100));
    const reads: number[] = [];
    const values = await readRangedValues(reader, first, 'member', {
      step: 100,
      onRead: (n) => reads.push(n),
    });
    expect(new Set(values)).toEqual(new Set(list(first['member;range=0-99']).concat(values.slice(100))));
    expect(values).toHaveLength(ALUMNI_COUNT);
    expect(new Set(values).size).toBe(ALUMNI_COUNT);
    expect(reads).toHaveLength(ALUMNI_COUNT / 100 - 1);
    // A first answer of 1,500 followed in steps of 70: the loop goes where each answer ended.
    const big = await entry(fixture.groups.Alumni, rangedAttribute('member'));
    expect(await readRangedValues(reader, big, 'member', { step: 70 })).toEqual(values);
  });

  it('reads a small group in the first answer, and an empty one as empty', async () => {
    const reads: number[] = [];
    const small = await entry(fixture.groups.Engineering, rangedAttribute('member'));
    const members = await readRangedValues(reader, small, 'member', { onRead: (n) => reads.push(n) });
    expect(members.map((m) => m.toLowerCase()).sort()).toEqual(
      [fixture.people.bob!.dn, fixture.groups.Backend].map((m) => m.toLowerCase()).sort(),
    );
    const empty = await entry(fixture.groups.Auditors, rangedAttribute('member'));
    expect(await readRangedValues(reader, empty, 'member', { onRead: (n) => reads.push(n) })).toEqual([]);
    expect(reads).toEqual([]);
  });
});

describe("the pushed graph against Active Directory's own answers", () => {
  let server: SambaServer;
  let fixture: AdFixture;
  let emulator: TestEmulator;
  let dir: string;
  /** The graph's user nodes' properties, by sAMAccountName. */
  let nodes: Map<string, Record<string, unknown>>;
  /** sAMAccountName -> the id the payload gave the user (its objectGUID). */
  let users: Map<string, string>;

  beforeAll(async () => {
    ({ server, fixture } = await theDomain());
    emulator = await startTestEmulator();
    dir = await mkdtemp(join(tmpdir(), 'oaakit-ad-truth-'));
    const result = await run('truth', 'state');
    expect(result.status).toBe('pushed');
    if (result.status !== 'pushed') throw new Error('not pushed');
    const res = await fetch(
      `${emulator.url}/_emulator/graph/nodes?data_source_id=${result.dataSource.id}&type=OAA.active_directory.IdPUser&limit=10000`,
      { headers: { authorization: `Bearer ${emulator.adminKey}` } },
    );
    const { values } = (await res.json()) as {
      values: { name: string; properties: Record<string, unknown> }[];
    };
    nodes = new Map(values.map((v) => [v.name, v.properties]));
    users = new Map(values.map((v) => [v.name, String(v.properties.identity)]));
  });
  afterAll(async () => {
    await emulator?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  function run(dataSource: string, state: string) {
    return runConnector({
      connector: ldapConnector,
      config: { url: server.url, bindDn: fixture.bindDn },
      secrets: { bindPassword: fixture.bindPassword },
      provider: 'Corp Active Directory',
      dataSource,
      client: createClient({ url: emulator.url, apiKey: emulator.apiKey }),
      state: new StateStore(join(dir, state)),
    });
  }

  interface AccessView {
    type: string;
    memberships: { type: string; name: string }[];
  }

  /** The groups the graph says `identity` is in, transitively (the emulator's access walk). */
  async function graphGroups(identity: string): Promise<string[]> {
    const res = await fetch(`${emulator.url}/_emulator/access`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ identity }),
    });
    expect(res.status).toBe(200);
    const views = ((await res.json()) as { values: AccessView[] }).values.filter(
      (v) => v.type === 'OAA.active_directory.IdPUser',
    );
    expect(views).toHaveLength(1);
    return views[0]!.memberships.filter((m) => m.type === 'OAA.active_directory.IdPGroup').map((m) => m.name);
  }

  /** Runs `work` on every item, a few at a time. */
  async function eachOf<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
    const queue = [...items];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await work(next);
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  }

  it('puts every user in the groups AD says it is in, nested ones and the primary group included', async () => {
    const reader = await boundAs(server, fixture.bindDn, fixture.bindPassword);
    try {
      const { searchEntries: allGroups } = await reader.search(BASE_DN, {
        filter: '(objectClass=group)',
        attributes: ['cn', 'objectSid', 'groupType'],
        explicitBufferAttributes: ['objectSid'],
        paged: { pageSize: 500 },
      });
      const cnOf = new Map(allGroups.map((g) => [g.dn.toLowerCase(), String(g.cn)]));
      // Names identify groups in the comparison: they must be unique.
      expect(new Set(cnOf.values()).size).toBe(allGroups.length);
      const bySid = new Map(allGroups.map((g) => [(g.objectSid as Buffer).toString('hex'), String(g.cn)]));
      const primaryToken = async (dn: string) =>
        String(
          (await reader.search(dn, { scope: 'base', attributes: ['primaryGroupToken'] })).searchEntries[0]
            ?.primaryGroupToken,
        );
      const byToken = new Map<string, string>();
      for (const g of allGroups) byToken.set(await primaryToken(g.dn), g.dn);

      /** AD's LDAP_MATCHING_RULE_IN_CHAIN: the groups whose member chain reaches `dn` (`only`: a further filter). */
      const inChain = async (dn: string, only = ''): Promise<string[]> =>
        (
          await search(
            reader,
            BASE_DN,
            `(&(objectClass=group)${only}(member:${IN_CHAIN}:=${escapeFilterValue(dn)}))`,
            ['cn'],
          )
        ).map((g) => String(g.cn));
      /** AD's tokenGroups: every security group the user is in, transitively, the primary group included. */
      const tokenGroups = async (dn: string): Promise<string[]> => {
        const { searchEntries } = await reader.search(dn, {
          scope: 'base',
          attributes: ['tokenGroups'],
          explicitBufferAttributes: ['tokenGroups'],
        });
        const sids = searchEntries[0]?.tokenGroups;
        return (Array.isArray(sids) ? sids : sids === undefined ? [] : [sids]).map(
          (sid) =>
            bySid.get((sid as Buffer).toString('hex')) ??
            `a group with SID bytes ${(sid as Buffer).toString('hex')}`,
        );
      };
      const distribution = '(!(groupType:1.2.840.113556.1.4.803:=2147483648))';

      const people = await search(reader, BASE_DN, AD_USER_FILTER, [
        'sAMAccountName',
        'primaryGroupID',
        'memberOf',
      ]);
      const mismatches: string[] = [];
      let memberships = 0;
      let direct = 0;
      let chained = 0;
      const same = (a: string[], b: string[]) =>
        JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());
      await eachOf(people, async (u) => {
        const sam = String(u.sAMAccountName);
        // For every user, AD's own expansion: tokenGroups for the security groups, and the matching
        // rule for the distribution groups (which tokenGroups leaves out).
        const truth = [
          ...new Set([...(await tokenGroups(u.dn)), ...(await inChain(u.dn, distribution))]),
        ].sort();
        const graph = [...new Set(await graphGroups(users.get(sam)!))].sort();
        if (!same(truth, graph)) mismatches.push(`${sam}: AD ${truth.join(', ')}; graph ${graph.join(', ')}`);
        memberships += truth.length;
        // memberOf lists the groups whose member names the user; the primary group is one more.
        direct += list(u.memberOf).length + 1;
        if (sam.startsWith('alum')) return;
        // For every account but the 1,600 alumni (Samba walks Alumni's members once per query, so
        // the rule over all groups costs tens of milliseconds a user): the matching rule over every
        // group. The primary group is in no member attribute, so the rule does not see it: AD puts
        // the user in it, and in every group that holds it.
        const primary = byToken.get(String(u.primaryGroupID));
        if (primary === undefined)
          throw new Error(`${sam}: no group has primaryGroupToken ${String(u.primaryGroupID)}`);
        const rule = [
          ...(await inChain(u.dn)),
          cnOf.get(primary.toLowerCase())!,
          ...(await inChain(primary)),
        ];
        if (!same(rule, graph))
          mismatches.push(
            `${sam}: matching rule ${[...new Set(rule)].sort().join(', ')}; graph ${graph.join(', ')}`,
          );
        chained++;
      });
      expect(mismatches).toEqual([]);
      console.log(
        `Active Directory equivalence: ${people.length} users, ${memberships} transitive group memberships ` +
          `(${direct} direct, primary groups included), ${chained} of them also by LDAP_MATCHING_RULE_IN_CHAIN ` +
          'over every group, 0 mismatches',
      );
      expect(people.length).toBeGreaterThanOrEqual(10 + 2 + ALUMNI_COUNT + 3);
      expect(chained).toBe(people.length - ALUMNI_COUNT);
      // Nesting is in the comparison: more transitive memberships than direct ones.
      expect(memberships).toBeGreaterThan(direct);
      // The cycle: a member of any of its groups is in all three, and in what holds them.
      const carol = await graphGroups(users.get('carol')!);
      expect(carol).toEqual(
        expect.arrayContaining(['Engineering', 'Backend', 'Platform', 'Building Access', 'All Staff']),
      );
      // grace's primary group, and the domain local group that holds it.
      expect(await graphGroups(users.get('grace')!)).toEqual(
        expect.arrayContaining(['Contractors', 'Building Access']),
      );
    } finally {
      await reader.unbind();
    }
  });

  it("sets each account's active, locked and must-change flags to what a bind with its own password answers", async () => {
    const accounts = [
      ...Object.values(fixture.people).map((p) => ({ sam: p.sam, dn: p.dn, password: p.password })),
      { sam: 'svc-oaa', dn: fixture.bindDn, password: fixture.bindPassword },
      { sam: 'svc-retired', dn: fixture.disabledBindDn, password: fixture.disabledBindPassword },
      { sam: 'Administrator', dn: server.adminDn, password: server.adminPassword },
    ];
    const mismatches: string[] = [];
    const answers = new Map<string, string>();
    for (const a of accounts) {
      const answer = await bindAnswer(server.url, a.dn, a.password);
      answers.set(a.sam, answer);
      const p = nodes.get(a.sam)!;
      // What the graph says a bind with the right password answers (49 with AD's reason, or ok).
      const flags = p.customprop_account_flags as string[];
      const expected = flags.includes('ACCOUNTDISABLE')
        ? '533'
        : p.is_active !== true
          ? '701' // Enabled, yet not active: accountExpires has passed.
          : p.customprop_locked === true
            ? '775'
            : p.customprop_must_change_password === true
              ? '773'
              : 'ok';
      if (answer !== expected) mismatches.push(`${a.sam}: bind ${answer}, graph says ${expected}`);
    }
    expect(mismatches).toEqual([]);
    const refused = [...answers.values()].filter((a) => a !== 'ok');
    console.log(
      `bind equivalence: ${accounts.length} accounts, ${refused.length} refused (49: ${[...new Set(refused)].sort().join(', ')}), 0 mismatches`,
    );
    expect(Object.fromEntries([...answers].filter(([, a]) => a !== 'ok'))).toEqual({
      erin: '533',
      frank: '701',
      heidi: '775',
      ivan: '773',
      'svc-retired': '533',
    });
  });
});

describe('check() against Samba', () => {
  let server: SambaServer;
  let fixture: AdFixture;
  beforeAll(async () => {
    ({ server, fixture } = await theDomain());
  });

  async function failure(config: LdapConfigInput, password: string): Promise<OaaError<string>> {
    const t = testContext(config, password);
    const error: unknown = await ldapConnector.check!(t.ctx).then(
      () => new Error('check() passed'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OaaError);
    return error as OaaError<string>;
  }

  it('binds as the least-privilege account and detects Active Directory, over LDAP and LDAPS', async () => {
    for (const url of [{ url: server.url }, { url: server.ldapsUrl, caFile: server.caFile }]) {
      const t = testContext({ ...url, bindDn: fixture.bindDn }, fixture.bindPassword);
      await ldapConnector.check!(t.ctx);
      expect(t.logs).toContainEqual([
        'info',
        'bound, and read the rootDSE',
        { flavor: 'active-directory', baseDn: BASE_DN, server: url.url },
      ]);
    }
  });

  it('names a wrong password (data 52e), without the password', async () => {
    const error = await failure({ url: server.url, bindDn: fixture.bindDn }, 'Not-the-password-1');
    expect(error.code).toBe('SOURCE_CREDENTIALS_REFUSED');
    expect(error.message).toBe(
      `${server.url} refused the bind as "${fixture.bindDn}": the password is wrong (Active Directory reason data 52e)`,
    );
    expect(error.details).toMatchObject({ field: 'bindPassword', adReason: '52e' });
    expect(JSON.stringify(error)).not.toContain('Not-the-password-1');
  });

  it('names a disabled bind account (data 533), with its right password', async () => {
    const error = await failure(
      { url: server.url, bindDn: fixture.disabledBindDn },
      fixture.disabledBindPassword,
    );
    expect(error.code).toBe('SOURCE_CREDENTIALS_REFUSED');
    expect(error.message).toBe(
      `${server.url} refused the bind as "${fixture.disabledBindDn}": the account is disabled (Active Directory reason data 533)`,
    );
    expect(error.details).toMatchObject({ field: 'bindDn', adReason: '533' });
  });
});

describe('re-running the connector against Active Directory', () => {
  it('pushes nothing when nothing changed, and pushes again after a membership changes', async () => {
    const { server, fixture } = await theDomain();
    const emulator = await startTestEmulator();
    const dir = await mkdtemp(join(tmpdir(), 'oaakit-ad-rerun-'));
    try {
      const run = () =>
        runConnector({
          connector: ldapConnector,
          config: { url: server.url, bindDn: fixture.bindDn },
          secrets: { bindPassword: fixture.bindPassword },
          provider: 'Corp Active Directory',
          dataSource: 'rerun',
          client: createClient({ url: emulator.url, apiKey: emulator.apiKey }),
          state: new StateStore(join(dir, 'state')),
        });
      expect((await run()).status).toBe('pushed');
      expect(await run()).toMatchObject({ status: 'skipped', skipped: 'unchanged' });
      const admin = await server.connectAsAdmin();
      try {
        await admin.modify(fixture.groups.Sales, [
          new Change({
            operation: 'add',
            modification: new Attribute({ type: 'member', values: [fixture.people.dave!.dn] }),
          }),
        ]);
      } finally {
        await admin.unbind();
      }
      const changed = await run();
      expect(changed.status).toBe('pushed');
      expect(changed.diff.byKind.users).toMatchObject({ changed: 1 });
    } finally {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('oaa plugins test plugins/ldap against Active Directory', () => {
  it('passes every applicable check, run as the built command, and the password appears nowhere', async () => {
    const { server, fixture } = await theDomain();
    const repo = fileURLToPath(new URL('../../../', import.meta.url));
    const dir = await mkdtemp(join(tmpdir(), 'oaa-plugins-test-ad-'));
    try {
      const config = join(dir, 'acceptance.json');
      const connector = {
        id: 'active-directory',
        plugin: join(repo, 'plugins/ldap'),
        provider: 'Active Directory',
        dataSource: 'Samba fixtures',
        config: { url: server.url, bindDn: fixture.bindDn },
        secrets: { bindPassword: 'env:AD_BIND_PASSWORD' },
      };
      await writeFile(config, JSON.stringify({ connectors: [connector] }));
      const child = spawn(
        process.execPath,
        [
          join(repo, 'packages/cli/bin/run.js'),
          'plugins',
          'test',
          'plugins/ldap',
          '--config',
          config,
          '--json',
        ],
        { cwd: repo, env: { ...process.env, AD_BIND_PASSWORD: fixture.bindPassword, NO_COLOR: '1' } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const [code] = (await once(child, 'close')) as [number | null];
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout) as {
        connector: { id: string; template: string };
        checks: { name: string; ok: boolean; skipped: boolean; reason: string }[];
      };
      expect(report.connector).toMatchObject({ id: 'ldap', template: 'identity_provider' });
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      // Only what cannot apply is skipped: the source is not HTTP, and the connector keeps no state.
      expect(report.checks.filter((c) => c.skipped).map((c) => c.name)).toEqual([
        'source-faults',
        'incremental',
      ]);
      expect(stdout + stderr).not.toContain(fixture.bindPassword);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// The bound `oaa plugins test` reads from package.json.
const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  oaakit: { acceptance: { peakRssMb: number } };
};

await runAcceptance(ldapConnector, async () => {
  const { server, fixture } = await theDomain();
  return {
    config: { url: server.url, bindDn: fixture.bindDn },
    secrets: { bindPassword: fixture.bindPassword },
    bounds: manifest.oaakit.acceptance,
    print: true,
  };
});
