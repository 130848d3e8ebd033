/**
 * The Redmine fixture, as Redmine itself reports it: the statuses, the custom role's permissions,
 * and which memberships are direct and which are inherited (through a group or a parent project).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDITOR_PERMISSIONS,
  AUDITOR_ROLE_SQL,
  loadRedmineFixture,
  USER_STATUS,
  type RedmineFixture,
} from './private-test-helpers/redmine-fixture.js';
import { startRedmine, type RedmineServer } from './testing/redmine-server.js';

interface Membership {
  project: { id: number; name: string };
  roles: { id: number; name: string; inherited?: boolean }[];
}

let redmine: RedmineServer;
let fixture: RedmineFixture;

beforeAll(async () => {
  redmine = await startRedmine({ sql: AUDITOR_ROLE_SQL });
  fixture = await loadRedmineFixture(redmine);
});
afterAll(async () => {
  await redmine?.stop();
});

async function memberships(login: string): Promise<Membership[]> {
  const { user } = await redmine.request<{ user: { memberships: Membership[] } }>(
    'GET',
    `/users/${fixture.users[login]}.json?include=memberships`,
  );
  return user.memberships;
}

describe('the Redmine fixture', () => {
  it('has users in every status, which the list endpoint returns one status at a time', async () => {
    const logins = async (status: number) =>
      (
        await redmine.request<{ users: { login: string }[] }>('GET', `/users.json?status=${status}&limit=100`)
      ).users
        .map((u) => u.login)
        .sort();
    expect(await logins(USER_STATUS.locked)).toEqual(['dennis']);
    expect(await logins(USER_STATUS.registered)).toEqual(['alan']);
    expect(await logins(USER_STATUS.active)).toEqual(
      ['ada', 'admin', 'barbara', 'grace', 'ken', 'linus', 'margaret'].sort(),
    );
  });

  it('has the custom role with the chosen permissions', async () => {
    const { role } = await redmine.request<{ role: { name: string; permissions: string[] } }>(
      'GET',
      `/roles/${fixture.roles.Auditor}.json`,
    );
    expect(role.name).toBe('Auditor');
    expect([...role.permissions].sort()).toEqual([...AUDITOR_PERMISSIONS].sort());
  });

  it('marks roles that come through a group or a parent project as inherited', async () => {
    const linus = await memberships('linus');
    const roles = (project: string) =>
      linus
        .filter((m) => m.project.name === project)
        .flatMap((m) => m.roles.map((r) => `${r.name}${r.inherited ? ' (inherited)' : ''}`))
        .sort();
    // Through Engineering on Platform, then down the tree to API and API docs; his own Reporter on API.
    expect(roles('Platform')).toEqual(['Developer (inherited)']);
    expect(roles('API')).toEqual(['Developer (inherited)', 'Reporter']);
    expect(roles('API docs')).toEqual(['Developer (inherited)', 'Reporter (inherited)']);
    // HR portal does not inherit Intranet's members: Ken is there only as Auditor.
    const ken = await memberships('ken');
    expect(ken.map((m) => `${m.project.name}: ${m.roles.map((r) => r.name).join(', ')}`).sort()).toEqual([
      'HR portal: Auditor',
      'Intranet: Reporter',
    ]);
  });

  it('has a public project and a closed one, listed when the closed status is asked for too', async () => {
    const all = await redmine.request<{ projects: { name: string; is_public: boolean; status: number }[] }>(
      'GET',
      '/projects.json?status=1|5&limit=100',
    );
    const byName = Object.fromEntries(all.projects.map((p) => [p.name, p]));
    expect(byName.Website?.is_public).toBe(true);
    expect(byName.Legacy?.status).toBe(5);
    expect(Object.keys(byName).sort()).toEqual(Object.keys(fixture.projects).sort());
  });
});
