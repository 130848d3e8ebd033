/**
 * A large generated Redmine, written straight into its SQLite database (the REST API takes 20 to
 * 30 ms a call, so 30,000 rows through it would take many minutes). Pass the SQL as
 * `startRedmine({ sql })`: it runs on the instance's copy of the database before the server starts.
 *
 * The shape: `users` users (one in 50 locked, one in 97 registered, the rest active), groups of 20
 * of them, `projects` projects in trees of ten (a root and nine subprojects; one in ten public, one
 * in twenty closed), and `memberships` memberships, each a user holding Manager, Developer or
 * Reporter on a project, at most one membership per user and project. No project inherits its
 * parent's members and no group holds a membership: Redmine stores the memberships those imply as
 * rows of their own when it makes them, and this SQL does not pretend to be Redmine.
 */

export interface RedmineBulkShape {
  users: number;
  projects: number;
  memberships: number;
}

/** The first id of generated users, above the default data's users and built-in groups. */
const FIRST_ID = 1000;

function whole(name: string, n: number, min: number): void {
  if (!Number.isSafeInteger(n) || n < min)
    throw new Error(`${name} must be a whole number of at least ${min}, got ${n}`);
}

/** Counts: how many users, projects, memberships and groups the SQL makes. */
export function redmineBulkCounts(shape: RedmineBulkShape): RedmineBulkShape & { groups: number } {
  return { ...shape, groups: Math.floor(shape.users / 20) };
}

/** The SQL that generates the shape. */
export function redmineBulkSql(shape: RedmineBulkShape): string {
  const { users, projects, memberships } = shape;
  whole('users', users, 1);
  whole('projects', projects, 10);
  if (projects % 10 !== 0)
    throw new Error(`projects must be a multiple of 10 (trees of ten), got ${projects}`);
  whole('memberships', memberships, 0);
  // A user's k-th membership is on project (u + 53k) mod P: distinct for k < P when 53 does not divide P.
  const perUser = Math.ceil(memberships / users);
  if (perUser > projects) throw new Error('memberships must be at most users x projects');
  if (projects % 53 === 0) throw new Error(`projects must not be a multiple of 53, got ${projects}`);
  const groups = Math.floor(users / 20);
  const groupStart = FIRST_ID + users;
  const now = `'2026-01-01 00:00:00'`;
  const seq = (n: number) =>
    `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n - 1})`;
  return `BEGIN;
${seq(users)}
INSERT INTO users (id, login, firstname, lastname, admin, status, created_on, updated_on, type, mail_notification, last_login_on)
  SELECT ${FIRST_ID} + i, 'user' || i, 'User', 'Number ' || i, 0,
    CASE WHEN i % 50 = 49 THEN 3 WHEN i % 97 = 96 THEN 2 ELSE 1 END,
    ${now}, ${now}, 'User', 'only_my_events',
    CASE WHEN i % 3 = 0 THEN NULL ELSE '2026-06-01 12:00:00' END
  FROM seq;
${seq(users)}
INSERT INTO email_addresses (user_id, address, is_default, notify, created_on, updated_on)
  SELECT ${FIRST_ID} + i, 'user' || i || '@example.com', 1, 1, ${now}, ${now} FROM seq;
${
  groups > 0
    ? `${seq(groups)}
INSERT INTO users (id, login, firstname, lastname, admin, status, created_on, updated_on, type, mail_notification)
  SELECT ${groupStart} + i, '', '', 'Group ' || i, 0, 1, ${now}, ${now}, 'Group', '' FROM seq;
${seq(groups * 20)}
INSERT INTO groups_users (group_id, user_id) SELECT ${groupStart} + i / 20, ${FIRST_ID} + i FROM seq;`
    : ''
}
${seq(projects)}
INSERT INTO projects (id, name, identifier, is_public, parent_id, status, lft, rgt, inherit_members, created_on, updated_on)
  SELECT 1 + i, 'Project ' || i, 'project-' || i, CASE WHEN i % 10 = 3 THEN 1 ELSE 0 END,
    CASE WHEN i % 10 = 0 THEN NULL ELSE 1 + (i / 10) * 10 END,
    CASE WHEN i % 20 = 7 THEN 5 ELSE 1 END,
    -- A tree of ten is a root (lft, rgt) = (20t + 1, 20t + 20) over leaves (20t + 2j, 20t + 2j + 1).
    CASE WHEN i % 10 = 0 THEN (i / 10) * 20 + 1 ELSE (i / 10) * 20 + 2 * (i % 10) END,
    CASE WHEN i % 10 = 0 THEN (i / 10) * 20 + 20 ELSE (i / 10) * 20 + 2 * (i % 10) + 1 END,
    0, ${now}, ${now}
  FROM seq;
${
  memberships > 0
    ? `${seq(memberships)}
INSERT INTO members (id, user_id, project_id, created_on, mail_notification)
  SELECT 1 + i, ${FIRST_ID} + i % ${users}, 1 + (i % ${users} + 53 * (i / ${users})) % ${projects}, ${now}, 0
  FROM seq;
INSERT INTO member_roles (member_id, role_id, inherited_from) SELECT id, 3 + id % 3, NULL FROM members;`
    : ''
}
COMMIT;
`;
}
