import { validate, type ApplicationPayload } from '@oaakit/core';
import { afterEach, describe, expect, it } from 'vitest';
import scimAppConnector from './index.js';
import { testContext } from './private-test-helpers/context.js';
import {
  startScimServer,
  type ScimServer,
  type ScimServerOptions,
} from './private-test-helpers/scim-server.js';
import { manyUsers } from './private-test-helpers/seed.js';

const TOKEN = 'paging-token';
let server: ScimServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(options: Partial<ScimServerOptions>, pageSize: number) {
  server = await startScimServer({
    users: [],
    groups: [],
    auth: { type: 'bearer', token: TOKEN },
    ...options,
  });
  const t = testContext(
    {
      baseUrl: server.baseUrl,
      applicationName: 'Wiki',
      applicationType: 'WikiApp',
      auth: { type: 'bearer' },
      pageSize,
    },
    TOKEN,
  );
  const payload = (await scimAppConnector.extract(t.ctx)) as ApplicationPayload;
  const pages = (path: string) =>
    server!.requests.filter((r) => r.path === path).map((r) => Number(r.query.startIndex));
  return {
    payload,
    names: payload.applications[0]!.local_users?.map((u) => u.name) ?? [],
    userPages: pages('/scim/v2/Users'),
    t,
  };
}

describe('paging through a SCIMMY server', () => {
  it('reads every user across several pages of pageSize', async () => {
    const { names, userPages, payload } = await run({ users: manyUsers(23) }, 5);
    expect(names).toEqual(manyUsers(23).map((u) => u.userName));
    expect(userPages).toEqual([1, 6, 11, 16, 21]);
    expect(validate('application', payload).errors).toEqual([]);
  });

  it('advances by what a server that caps count actually returned', async () => {
    const { names, userPages, t } = await run({ users: manyUsers(10), maxCount: 3 }, 50);
    expect(names).toEqual(manyUsers(10).map((u) => u.userName));
    expect(userPages).toEqual([1, 4, 7, 10]);
    expect(t.progress).toEqual([
      ['start', 'users', 10],
      ['tick', 3],
      ['tick', 3],
      ['tick', 3],
      ['tick', 1],
      ['start', 'groups', 0],
    ]);
  });

  it('reads groups page by page too, with nesting resolved across pages', async () => {
    const groups = Array.from({ length: 7 }, (_, i) => ({
      id: `g${i}`,
      displayName: `Team ${i}`,
      // Each group contains the next one: the parent of g6 is on another page than g6.
      members: i < 6 ? [{ value: `g${i + 1}`, type: 'Group' }] : [{ value: 'id-user01', type: 'User' }],
    }));
    const { payload } = await run({ users: manyUsers(2), groups }, 2);
    const app = payload.applications[0]!;
    expect(app.local_groups?.find((g) => g.name === 'Team 6')?.groups).toEqual(['Team 5']);
    expect(app.local_users?.find((u) => u.name === 'user01')?.groups).toEqual(['Team 6']);
    expect(
      server!.requests.filter((r) => r.path === '/scim/v2/Groups').map((r) => r.query.startIndex),
    ).toEqual(['1', '3', '5', '7']);
  });

  it('refuses a server that ignores startIndex instead of looping or duplicating users', async () => {
    const error: unknown = await run({ users: manyUsers(10), ignoreStartIndex: true }, 4).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'SCIM_PAGING_BROKEN',
      message: expect.stringMatching(/"id-user01" again at startIndex 5/),
    });
    expect(server!.requests.map((r) => r.query.startIndex)).toEqual(['1', '5']);
  });

  it('gives an empty application for an empty directory', async () => {
    const { names, userPages } = await run({}, 10);
    expect(names).toEqual([]);
    expect(userPages).toEqual([1]);
  });

  it('keeps group membership cycles out of the payload and says so', async () => {
    const groups = [
      { id: 'ga', displayName: 'A', members: [{ value: 'gb', type: 'Group' }] },
      { id: 'gb', displayName: 'B', members: [{ value: 'ga', type: 'Group' }] },
    ];
    const { payload, t } = await run({ groups }, 10);
    expect(validate('application', payload).errors).toEqual([]);
    expect(payload.applications[0]!.local_groups?.map((g) => g.name).sort()).toEqual(['A', 'B']);
    expect(t.logs.some(([level, msg]) => level === 'warn' && /cycle/.test(msg ?? ''))).toBe(true);
  });

  it('refers to groups that share a display name by their SCIM id', async () => {
    const groups = [
      { id: 'ops-1', displayName: 'Ops', members: [{ value: 'id-user01', type: 'User' }] },
      { id: 'ops-2', displayName: 'ops', members: [{ value: 'id-user02', type: 'User' }] },
    ];
    const { payload } = await run({ users: manyUsers(2), groups }, 10);
    const app = payload.applications[0]!;
    expect(app.local_users?.map((u) => u.groups)).toEqual([['ops-1'], ['ops-2']]);
    expect(validate('application', payload).errors).toEqual([]);
  });
});
