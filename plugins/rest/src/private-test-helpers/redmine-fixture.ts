/**
 * The Redmine fixture: a small company's tracker, loaded through Redmine's own REST API, except the
 * custom role, which the API cannot create (it is inserted into the database before the server
 * starts: pass {@link AUDITOR_ROLE_SQL} as `startRedmine({ sql })`).
 *
 * What it holds, each for a rule of the mapping:
 * - users in every status: active, locked (3) and registered (2), and a second admin;
 * - groups with members: `Engineering` and `Support`;
 * - a project tree: `Platform` (private) > `API` (inherits members) > `API docs` (inherits members),
 *   and `Intranet` (private) > `HR portal` (does not inherit);
 * - a public project, `Website`, where the built-in Non member role applies to every active user;
 * - a closed project, `Legacy`;
 * - memberships of users and of groups, one user holding two roles on a project, and a direct role
 *   on a project where the user also inherits one;
 * - the custom role `Auditor`, with a permission set chosen for the test.
 */
import type { RedmineServer } from '../testing/redmine-server.js';

/** The custom role's permissions, as Redmine names them. */
export const AUDITOR_PERMISSIONS = [
  'view_issues',
  'view_time_entries',
  'view_wiki_pages',
  'view_files',
] as const;

/** Inserts the custom role `Auditor` (id 6), which the REST API has no call to create. */
export const AUDITOR_ROLE_SQL = `INSERT INTO roles
  (id, name, position, assignable, builtin, permissions, issues_visibility, users_visibility,
   time_entries_visibility, all_roles_managed, settings)
  VALUES (6, 'Auditor', 4, 1, 0, '---\n${AUDITOR_PERMISSIONS.map((p) => `- :${p}`).join('\n')}\n',
   'all', 'all', 'all', 1, NULL);`;

/** Redmine's user statuses. */
export const USER_STATUS = { active: 1, registered: 2, locked: 3 } as const;

interface UserSpec {
  login: string;
  firstname: string;
  lastname: string;
  status: number;
  admin?: boolean;
}

const USERS: UserSpec[] = [
  { login: 'ada', firstname: 'Ada', lastname: 'Lovelace', status: USER_STATUS.active },
  { login: 'grace', firstname: 'Grace', lastname: 'Hopper', status: USER_STATUS.active },
  { login: 'linus', firstname: 'Linus', lastname: 'Torvalds', status: USER_STATUS.active },
  { login: 'margaret', firstname: 'Margaret', lastname: 'Hamilton', status: USER_STATUS.active },
  { login: 'ken', firstname: 'Ken', lastname: 'Thompson', status: USER_STATUS.active },
  { login: 'barbara', firstname: 'Barbara', lastname: 'Liskov', status: USER_STATUS.active, admin: true },
  { login: 'dennis', firstname: 'Dennis', lastname: 'Ritchie', status: USER_STATUS.locked },
  { login: 'alan', firstname: 'Alan', lastname: 'Turing', status: USER_STATUS.registered },
];

/** What the fixture made, by name, for the tests to look things up. */
export interface RedmineFixture {
  users: Record<string, number>;
  groups: Record<string, number>;
  projects: Record<string, number>;
  roles: { Manager: number; Developer: number; Reporter: number; Auditor: number; 'Non member': number };
}

/** Loads the fixture into a Redmine started with {@link AUDITOR_ROLE_SQL}. */
export async function loadRedmineFixture(redmine: RedmineServer): Promise<RedmineFixture> {
  const users: Record<string, number> = {};
  for (const u of USERS) {
    const { user } = await redmine.request<{ user: { id: number } }>('POST', '/users.json', {
      user: {
        login: u.login,
        firstname: u.firstname,
        lastname: u.lastname,
        mail: `${u.login}@example.com`,
        password: `${u.login}-fixture-password`,
        status: u.status,
        admin: u.admin ?? false,
      },
    });
    users[u.login] = user.id;
  }

  const groups: Record<string, number> = {};
  for (const [name, members] of [
    ['Engineering', ['grace', 'linus', 'dennis']],
    ['Support', ['margaret', 'ken']],
  ] as const) {
    const { group } = await redmine.request<{ group: { id: number } }>('POST', '/groups.json', {
      group: { name, user_ids: members.map((m) => users[m]) },
    });
    groups[name] = group.id;
  }

  const projects: Record<string, number> = {};
  const project = async (
    name: string,
    identifier: string,
    options: { isPublic: boolean; parent?: string; inheritMembers?: boolean },
  ): Promise<void> => {
    const { project: made } = await redmine.request<{ project: { id: number } }>('POST', '/projects.json', {
      project: {
        name,
        identifier,
        is_public: options.isPublic,
        ...(options.parent !== undefined && { parent_id: projects[options.parent] }),
        inherit_members: options.inheritMembers ?? false,
      },
    });
    projects[name] = made.id;
  };
  await project('Platform', 'platform', { isPublic: false });
  await project('API', 'api', { isPublic: false, parent: 'Platform', inheritMembers: true });
  await project('API docs', 'api-docs', { isPublic: false, parent: 'API', inheritMembers: true });
  await project('Intranet', 'intranet', { isPublic: false });
  await project('HR portal', 'hr-portal', { isPublic: false, parent: 'Intranet' });
  await project('Website', 'website', { isPublic: true });
  await project('Legacy', 'legacy', { isPublic: false });

  const roles = { Manager: 3, Developer: 4, Reporter: 5, Auditor: 6, 'Non member': 1 } as const;
  /**
   * Gives the principal (a user or a group) roles on a project. When it already has a membership
   * there (an inherited one, through a group or the parent project), the roles are added to that
   * membership, as Redmine's own page does: a second membership would be refused.
   */
  const member = async (projectName: string, principal: number, roleNames: (keyof typeof roles)[]) => {
    const projectId = projects[projectName]!;
    const roleIds = roleNames.map((r) => roles[r]);
    const { memberships } = await redmine.request<{
      memberships: {
        id: number;
        user?: { id: number };
        group?: { id: number };
        roles: { id: number; inherited?: boolean }[];
      }[];
    }>('GET', `/projects/${projectId}/memberships.json?limit=100`);
    const existing = memberships.find((m) => (m.user ?? m.group)?.id === principal);
    if (existing === undefined) {
      await redmine.request('POST', `/projects/${projectId}/memberships.json`, {
        membership: { user_id: principal, role_ids: roleIds },
      });
    } else {
      const own = existing.roles.filter((r) => r.inherited !== true).map((r) => r.id);
      await redmine.request('PUT', `/memberships/${existing.id}.json`, {
        membership: { role_ids: [...new Set([...own, ...roleIds])] },
      });
    }
  };
  await member('Platform', users.ada!, ['Manager']);
  await member('Platform', groups.Engineering!, ['Developer']);
  // Linus inherits Developer on API (through Engineering, from Platform) and holds Reporter there himself.
  await member('API', users.linus!, ['Reporter']);
  await member('Intranet', groups.Support!, ['Reporter']);
  await member('Intranet', users.margaret!, ['Manager', 'Developer']);
  await member('HR portal', users.ken!, ['Auditor']);
  await member('Website', users.barbara!, ['Manager']);
  await member('Legacy', users.grace!, ['Developer']);
  await member('Legacy', users.dennis!, ['Manager']);
  await redmine.request('PUT', `/projects/${projects.Legacy}/close.json`);

  return { users, groups, projects, roles };
}
