/**
 * The check of truth for the redmine manifest: the fixture Redmine is read by the manifest and
 * pushed into the emulator; then for every user and every project of the fixture, the roles and the
 * canonical permissions the emulator's effective-access walk reports for the user on the project
 * equal what Redmine itself reports: the user's memberships (`/users/ID.json?include=memberships`,
 * whatever their origin: own, through a group, from the parent project), each role resolved to its
 * permissions (`/roles/ID.json`) and those to canonical types by the manifest's lookup table, plus
 * the Non member role on each public project where the user has no membership (or, where the
 * project gives the built-in Non member users group roles, those). Redmine's own code agrees: the
 * roles of `User#roles_for_project`, asked with `rails runner`, equal the graph's for every user
 * and project too. And the users that cannot log in (locked, registered) are inactive in the graph.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@oaakit/client';
import { PERMISSION_TYPES } from '@oaakit/core';
import { startTestEmulator, type TestEmulator } from '@oaakit/emulator/testing';
import { StateStore, runConnector } from '@oaakit/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import restConnector from './index.js';
import { manifestPath } from './manifest/load.js';
import {
  AUDITOR_ROLE_SQL,
  loadRedmineFixture,
  USER_STATUS,
  type RedmineFixture,
} from './private-test-helpers/redmine-fixture.js';
import { startRedmine, type RedmineServer } from './testing/redmine-server.js';

let redmine: RedmineServer;
let fixture: RedmineFixture;
let emulator: TestEmulator;
let dir: string;

/**
 * Beyond the fixture: the public project Handbook, where the built-in Non member users group holds
 * Reporter (which then replaces Non member for non-members), and Ada is a member (as Developer).
 */
async function addHandbook(): Promise<void> {
  const { project } = await redmine.request<{ project: { id: number } }>('POST', '/projects.json', {
    project: { name: 'Handbook', identifier: 'handbook', is_public: true },
  });
  const { groups } = await redmine.request<{ groups: { id: number; builtin?: string }[] }>(
    'GET',
    '/groups.json?builtin=1',
  );
  const nonMembers = groups.find((g) => g.builtin === 'non_member');
  if (nonMembers === undefined) throw new Error('Redmine lists no built-in Non member users group');
  for (const [principal, role] of [
    [nonMembers.id, fixture.roles.Reporter],
    [fixture.users.ada!, fixture.roles.Developer],
  ] as const)
    await redmine.request('POST', `/projects/${project.id}/memberships.json`, {
      membership: { user_id: principal, role_ids: [role] },
    });
  fixture.projects.Handbook = project.id;
}

beforeAll(async () => {
  redmine = await startRedmine({ sql: AUDITOR_ROLE_SQL });
  fixture = await loadRedmineFixture(redmine);
  await addHandbook();
  emulator = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'oaakit-redmine-truth-'));
});
afterAll(async () => {
  await emulator?.close();
  await redmine?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

interface RedmineUser {
  id: number;
  login: string;
}
interface RedmineProject {
  id: number;
  name: string;
  is_public: boolean;
}
interface Membership {
  project: { id: number; name: string };
  roles: { id: number; name: string; inherited?: boolean }[];
}
interface ProjectMembership {
  group_non_member?: { id: number };
  roles: { name: string }[];
}

/** The manifest's lookup table of Redmine permission names to canonical types. */
async function permissionTypes(): Promise<Record<string, string[]>> {
  const manifest = parse(await readFile(manifestPath('redmine', undefined), 'utf8')) as {
    payload: { permission_types: Record<string, string[]> };
  };
  return manifest.payload.permission_types;
}

async function everyUser(): Promise<(RedmineUser & { status: number })[]> {
  const out: (RedmineUser & { status: number })[] = [];
  for (const status of Object.values(USER_STATUS)) {
    const { users } = await redmine.request<{ users: RedmineUser[] }>(
      'GET',
      `/users.json?status=${status}&limit=100`,
    );
    out.push(...users.map((u) => ({ ...u, status })));
  }
  return out;
}

interface AccessView {
  type: string;
  name: string;
  destinations: { type: string; name: string; permissions: string[]; grants: { role: string | null }[] }[];
}

/** What the graph says the local user `login` holds on each project: roles and canonical types. */
async function graphAccess(login: string): Promise<Map<string, { roles: string[]; permissions: string[] }>> {
  const res = await fetch(`${emulator.url}/_emulator/access`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ identity: login }),
  });
  expect(res.status).toBe(200);
  const { values } = (await res.json()) as { values: AccessView[] };
  const users = values.filter((v) => v.type === 'OAA.Redmine.User' && v.name === login);
  expect(users).toHaveLength(1);
  return new Map(
    users[0]!.destinations
      .filter((d) => /^OAA\.Redmine\.project\.(Sub)?Resource$/.test(d.type))
      .map((d) => [
        d.name,
        {
          roles: [...new Set(d.grants.map((g) => g.role).filter((r): r is string => r !== null))].sort(),
          permissions: [...d.permissions].sort(),
        },
      ]),
  );
}

describe('the redmine manifest pushed into the emulator, against Redmine', () => {
  let dataSourceId: string;
  beforeAll(async () => {
    const result = await runConnector({
      connector: restConnector,
      config: { manifest: 'redmine', vars: { url: redmine.url } },
      secrets: { apiKey: redmine.apiKey },
      provider: 'Redmine',
      dataSource: 'fixture Redmine',
      client: createClient({ url: emulator.url, apiKey: emulator.apiKey }),
      state: new StateStore(join(dir, 'state')),
    });
    expect(result.status).toBe('pushed');
    if (result.status !== 'pushed') throw new Error('not pushed');
    dataSourceId = result.dataSource.id;
  });

  it('maps every permission of Redmine to canonical types', async () => {
    const table = await permissionTypes();
    // The default Manager role holds every permission a role can be given.
    const { role } = await redmine.request<{ role: { permissions: string[] } }>(
      'GET',
      `/roles/${fixture.roles.Manager}.json`,
    );
    expect(role.permissions.length).toBeGreaterThan(60);
    expect(role.permissions.filter((p) => !Object.hasOwn(table, p))).toEqual([]);
    for (const types of Object.values(table))
      for (const t of types) expect(PERMISSION_TYPES).toContain(t as (typeof PERMISSION_TYPES)[number]);
  });

  it('gives every user the roles and canonical permissions Redmine gives it on every project', async () => {
    const table = await permissionTypes();
    const roleIds = [
      ...(await redmine.request<{ roles: { id: number }[] }>('GET', '/roles.json')).roles.map((r) => r.id),
      fixture.roles['Non member'],
    ];
    const rolePermissions = new Map<string, string[]>();
    for (const id of roleIds) {
      const { role } = await redmine.request<{ role: { name: string; permissions: string[] } }>(
        'GET',
        `/roles/${id}.json`,
      );
      rolePermissions.set(role.name, role.permissions);
    }
    expect(rolePermissions.get('Non member')?.length).toBeGreaterThan(0);
    const { projects } = await redmine.request<{ projects: RedmineProject[] }>(
      'GET',
      '/projects.json?status=1|5&limit=100',
    );
    expect(projects.map((p) => p.name).sort()).toEqual(Object.keys(fixture.projects).sort());
    const users = await everyUser();
    expect(users.map((u) => u.login).sort()).toEqual([...Object.keys(fixture.users), 'admin'].sort());
    // The roles the built-in Non member users group holds on a project replace Non member there.
    const nonMemberRoles = new Map<number, string[]>();
    for (const project of projects.filter((p) => p.is_public)) {
      const { memberships } = await redmine.request<{ memberships: ProjectMembership[] }>(
        'GET',
        `/projects/${project.id}/memberships.json?limit=100`,
      );
      const override = memberships.filter((m) => m.group_non_member !== undefined);
      nonMemberRoles.set(
        project.id,
        override.length > 0 ? override.flatMap((m) => m.roles.map((r) => r.name)) : ['Non member'],
      );
    }
    expect(nonMemberRoles.get(fixture.projects.Handbook!)).toEqual(['Reporter']);

    const mismatches: string[] = [];
    let checks = 0;
    let held = 0;
    for (const user of users) {
      const { user: shown } = await redmine.request<{ user: { memberships: Membership[] } }>(
        'GET',
        `/users/${user.id}.json?include=memberships`,
      );
      const graph = await graphAccess(user.login);
      for (const project of projects) {
        const memberships = shown.memberships.filter((m) => m.project.id === project.id);
        // Redmine's rule: a member gets its member roles; a non-member, Non member (or what the
        // project gives the Non member users group) on a public project, nothing on a private one.
        const roles =
          memberships.length > 0
            ? memberships.flatMap((m) => m.roles.map((r) => r.name))
            : (nonMemberRoles.get(project.id) ?? []);
        const want = {
          roles: [...new Set(roles)].sort(),
          permissions: [
            ...new Set(roles.flatMap((r) => (rolePermissions.get(r) ?? []).flatMap((p) => table[p] ?? []))),
          ].sort(),
        };
        const got = graph.get(project.name) ?? { roles: [], permissions: [] };
        checks += 1;
        if (want.roles.length > 0) held += 1;
        if (JSON.stringify(want) !== JSON.stringify(got))
          mismatches.push(
            `${user.login} on ${project.name}: Redmine ${JSON.stringify(want)}; graph ${JSON.stringify(got)}`,
          );
      }
      // Nothing beyond the projects: no grant on the application itself.
      expect([...graph.keys()].filter((name) => !projects.some((p) => p.name === name))).toEqual([]);
    }
    expect(mismatches).toEqual([]);
    // 9 users (the fixture's 8 and admin) x 8 projects (the fixture's 7 and Handbook).
    expect(checks).toBe(72);
    expect(held).toBe(35);
    console.log(
      `Redmine equivalence: ${users.length} users x ${projects.length} projects, ${checks} checks, ${held} with roles, 0 mismatches`,
    );
  });

  it("agrees with Redmine's own roles_for_project for every user and project", async () => {
    // Redmine's code, run in the instance: the roles each user holds on each active or closed project.
    const script = `out = {}
      User.where(type: 'User').each do |u|
        Project.where(status: [1, 5]).each do |p|
          out["#{u.login} on #{p.name}"] = u.roles_for_project(p).map(&:name).uniq.sort
        end
      end
      puts 'ROLES ' + out.to_json`;
    const { stdout } = await promisify(execFile)(
      'ruby',
      ['bin/rails', 'runner', '-e', 'production', script],
      {
        cwd: '/usr/share/redmine',
        env: { ...process.env, REDMINE_INSTANCE: basename(redmine.dir), RAILS_ENV: 'production' },
        maxBuffer: 16 << 20,
      },
    );
    const line = stdout.split('\n').find((l) => l.startsWith('ROLES '));
    expect(line, stdout).toBeDefined();
    const truth = JSON.parse(line!.slice('ROLES '.length)) as Record<string, string[]>;
    expect(Object.keys(truth)).toHaveLength(72);
    const graph = new Map<string, Map<string, { roles: string[] }>>();
    const mismatches: string[] = [];
    for (const [key, roles] of Object.entries(truth)) {
      const [login, project] = key.split(' on ') as [string, string];
      if (!graph.has(login)) graph.set(login, await graphAccess(login));
      const got = graph.get(login)!.get(project)?.roles ?? [];
      if (JSON.stringify(got) !== JSON.stringify(roles))
        mismatches.push(`${key}: Redmine ${roles.join(', ')}; graph ${got.join(', ')}`);
    }
    expect(mismatches).toEqual([]);
    expect(truth['ada on Handbook']).toEqual(['Developer']);
    expect(truth['grace on Handbook']).toEqual(['Reporter']);
    expect(truth['grace on Website']).toEqual(['Non member']);
  });

  it('makes the users who cannot log in (locked, registered) inactive, and keeps the admin flag', async () => {
    const res = await fetch(
      `${emulator.url}/_emulator/graph/nodes?data_source_id=${dataSourceId}&type=OAA.Redmine.User&limit=100`,
      { headers: { authorization: `Bearer ${emulator.adminKey}` } },
    );
    expect(res.status).toBe(200);
    const { values } = (await res.json()) as {
      values: { name: string; properties: Record<string, unknown> }[];
    };
    const users = await everyUser();
    expect(values).toHaveLength(users.length);
    const byName = new Map(values.map((v) => [v.name, v.properties]));
    const statusName = { 1: 'active', 2: 'registered', 3: 'locked' } as Record<number, string>;
    for (const u of users) {
      expect(byName.get(u.login)?.['is_active'], u.login).toBe(u.status === USER_STATUS.active);
      expect(byName.get(u.login)?.['customprop_status'], u.login).toBe(statusName[u.status]);
    }
    expect(
      values
        .filter((v) => v.properties['is_active'] === false)
        .map((v) => v.name)
        .sort(),
    ).toEqual(['alan', 'dennis']);
    expect(
      values
        .filter((v) => v.properties['customprop_admin'] === true)
        .map((v) => v.name)
        .sort(),
    ).toEqual(['admin', 'barbara']);
  });
});
