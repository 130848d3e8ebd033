/**
 * The generated Redmine that the benchmark reads: Redmine itself reports the users, projects,
 * project trees and memberships the SQL wrote, so the SQL makes data Redmine understands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redmineBulkCounts, redmineBulkSql } from './testing/redmine-bulk.js';
import { startRedmine, type RedmineServer } from './testing/redmine-server.js';

const SHAPE = { users: 120, projects: 30, memberships: 300 };
let redmine: RedmineServer;

beforeAll(async () => {
  redmine = await startRedmine({ sql: redmineBulkSql(SHAPE) });
});
afterAll(async () => {
  await redmine?.stop();
});

const total = async (path: string) =>
  (await redmine.request<{ total_count: number }>('GET', path)).total_count;

describe('the generated Redmine', () => {
  it('has the users of every status, the groups and the projects it was asked for', async () => {
    const counts = redmineBulkCounts(SHAPE);
    const generated = (status: number) => total(`/users.json?status=${status}&name=user&limit=1`);
    const byStatus = [await generated(1), await generated(2), await generated(3)];
    expect(byStatus.reduce((a, b) => a + b)).toBe(counts.users);
    expect(byStatus[2]).toBe(2); // users 49 and 99 are locked
    expect(byStatus[1]).toBe(1); // user 96 is registered
    // The groups list is not paged: it has no total_count.
    const { groups } = await redmine.request<{ groups: { name: string }[] }>('GET', '/groups.json');
    expect(groups.filter((g) => g.name.startsWith('Group '))).toHaveLength(counts.groups);
    expect(await total('/projects.json?status=1|5&limit=1')).toBe(counts.projects);
  });

  it('has the memberships it was asked for, each user on distinct projects, in trees Redmine reads', async () => {
    const { projects } = await redmine.request<{ projects: { id: number; parent?: { id: number } }[] }>(
      'GET',
      '/projects.json?status=1|5&limit=100',
    );
    let memberships = 0;
    for (const p of projects) memberships += await total(`/projects/${p.id}/memberships.json?limit=1`);
    expect(memberships).toBe(SHAPE.memberships);
    const roots = projects.filter((p) => p.parent === undefined).map((p) => p.id);
    expect(roots).toHaveLength(SHAPE.projects / 10);
    expect(projects.filter((p) => p.parent !== undefined).every((p) => roots.includes(p.parent!.id))).toBe(
      true,
    );
  });
});
