/**
 * The shipped `scim` manifest against the hand-written scim-app: both read the same SCIM server
 * (SCIMMY, the one scim-app's tests start) and must build the same payload: equal digests. The
 * directories exercise what the mapping does beyond copying fields: primary emails first,
 * members typed by type, by $ref or by what their id is, the users' own `groups`, nested groups,
 * names shared by two groups (referred to by id), managers by userName, entitlements and roles
 * shared between users.
 */
import scimApp from '@oaakit/plugin-scim-app';
import { afterEach, describe, expect, it } from 'vitest';
import restConnector from './index.js';
import {
  directory,
  dryRun,
  manyUsers,
  startScimServer,
  type ScimServer,
  type SeedResource,
} from './private-test-helpers/scim.js';
import { serve } from './private-test-helpers/source.js';

const TOKEN = 'scim-equivalence-token-3f9a';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

let server: ScimServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function both(users: SeedResource[], groups: SeedResource[], pageSize: number) {
  server = await startScimServer({ users, groups, auth: { type: 'bearer', token: TOKEN } });
  const hand = await dryRun(
    scimApp,
    {
      baseUrl: server.baseUrl,
      applicationName: 'Wiki',
      applicationType: 'WikiApp',
      auth: { type: 'bearer' },
      pageSize,
    },
    { credential: TOKEN },
  );
  const manifest = await dryRun(
    restConnector,
    {
      manifest: 'scim',
      vars: {
        url: server.baseUrl,
        application_name: 'Wiki',
        application_type: 'WikiApp',
        page_size: pageSize,
      },
    },
    { token: TOKEN },
  );
  return { hand, manifest };
}

const ENTITY_LISTS = new Set([
  'applications',
  'local_users',
  'local_groups',
  'local_roles',
  'permissions',
  'identity_to_permissions',
]);

/**
 * A payload as its digest sees it: values that mean "unused" (null, [], {}) left out, entity
 * collections in one order; other lists (a user's groups) keep theirs.
 */
function canonical(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => canonical(v));
    return ENTITY_LISTS.has(key)
      ? items.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
      : items;
  }
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const c = canonical(v, k);
    const unused =
      c === null ||
      (Array.isArray(c) && c.length === 0) ||
      (typeof c === 'object' && c !== null && Object.keys(c).length === 0);
    if (!unused) out[k] = c;
  }
  return out;
}

/** A directory with what scim-app's own seed leaves out. */
function tricky(): { users: SeedResource[]; groups: SeedResource[] } {
  const users: SeedResource[] = [
    {
      id: 'u-erin',
      userName: 'erin',
      active: true,
      emails: [
        { value: 'erin@work.example' },
        { value: 'ERIN@work.example', primary: true },
        { value: 'erin@home.example' },
      ],
      roles: [{ value: 'Auditor' }, { value: 'admin' }],
      entitlements: [{ value: 'Repo:Read' }],
      [ENTERPRISE]: { manager: { value: 'u-frank' } },
    },
    {
      id: 'u-frank',
      userName: 'frank',
      active: false,
      roles: [{ value: 'Admin' }],
      entitlements: [{ value: 'repo:read' }, { value: 'billing:write' }],
      [ENTERPRISE]: { manager: { value: 'u-nobody' }, department: 'Finance' },
    },
    // userName equal, without case, to another user's: both are referred to by id in grants.
    { id: 'u-gina-1', userName: 'gina', roles: [{ value: 'Auditor' }] },
    { id: 'u-gina-2', userName: 'Gina', roles: [{ value: 'Auditor' }] },
  ];
  const groups: SeedResource[] = [
    // Two groups named Ops: referred to by id.
    {
      id: 'g-ops-1',
      displayName: 'Ops',
      members: [{ value: 'u-erin', $ref: 'https://x.example/scim/v2/Users/u-erin' }],
    },
    { id: 'g-ops-2', displayName: 'ops', members: [{ value: 'g-leaf' }, { value: 'u-ghost', type: 'User' }] },
    {
      id: 'g-root',
      displayName: 'Root',
      members: [
        { value: 'g-ops-1', type: 'Group' },
        { value: 'u-frank', type: 'User' },
      ],
    },
    {
      id: 'g-leaf',
      displayName: 'Leaf',
      members: [{ value: 'u-gina-1' }, { value: 'u-gina-2', type: 'User' }],
    },
  ];
  return { users, groups };
}

/**
 * A directory as some SCIM services write it, served by a plain HTTP server (SCIMMY rewrites
 * attribute names to the schema's spelling): attribute names in other cases, groups nested in a
 * cycle (Ops in Eng in Ops), and a member that names no user.
 */
function oddlySpelled(): { users: object[]; groups: object[] } {
  const users = [
    {
      ID: 'u-ivy',
      UserName: 'ivy',
      Active: true,
      Emails: [{ Value: 'ivy@example.com', Primary: true }],
      ROLES: [{ VALUE: 'Admin' }],
      Meta: { Created: '2024-01-02T03:04:05Z' },
    },
    { id: 'u-jon', userName: 'jon', active: 'False', entitlements: [{ value: 'deploy' }] },
  ];
  const groups = [
    { id: 'g-ops', DisplayName: 'Ops', Members: [{ Value: 'u-ivy', Type: 'User' }, { value: 'g-eng' }] },
    {
      id: 'g-eng',
      displayName: 'Eng',
      members: [{ value: 'g-ops', type: 'Group' }, { value: 'u-jon' }, { value: 'u-ghost', type: 'User' }],
    },
    { id: 'g-all', displayName: 'All', members: [{ value: 'g-eng', type: 'Group' }] },
  ];
  return { users, groups };
}

describe('the scim manifest builds the payload scim-app builds', () => {
  it('on attribute names in other cases and groups nested in a cycle, leaving out the same membership and reporting the same findings', async () => {
    const { users, groups } = oddlySpelled();
    const source = await serve((req) => {
      if (req.headers['authorization'] !== `Bearer ${TOKEN}`) return { status: 401, json: {} };
      const all = req.path.endsWith('/Users') ? users : req.path.endsWith('/Groups') ? groups : undefined;
      if (all === undefined) return { status: 404, json: {} };
      const start = Number(req.query['startIndex'] ?? '1');
      const count = Number(req.query['count'] ?? '100');
      const page = all.slice(start - 1, start - 1 + count);
      return {
        json: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
          totalResults: all.length,
          startIndex: start,
          itemsPerPage: page.length,
          Resources: page,
        },
      };
    });
    try {
      const baseUrl = `${source.url}/scim/v2`;
      const hand = await dryRun(
        scimApp,
        {
          baseUrl,
          applicationName: 'Wiki',
          applicationType: 'WikiApp',
          auth: { type: 'bearer' },
          pageSize: 2,
        },
        { credential: TOKEN },
      );
      const manifest = await dryRun(
        restConnector,
        {
          manifest: 'scim',
          vars: { url: baseUrl, application_name: 'Wiki', application_type: 'WikiApp', page_size: 2 },
        },
        { token: TOKEN },
      );
      expect(canonical(manifest.payload)).toEqual(canonical(hand.payload));
      expect(manifest.result.digest).toBe(hand.result.digest);
      // The attributes were read whatever their case.
      const [app] = manifest.payload['applications'] as { local_users: Record<string, unknown>[] }[];
      expect(app!.local_users.find((u) => u['name'] === 'ivy')).toMatchObject({
        identities: ['ivy@example.com'],
        is_active: true,
      });
      // Both report the membership they left out.
      const cycle = (r: { connectorWarnings: { message: string }[] }) =>
        r.connectorWarnings.filter((w) => /cycle/.test(w.message));
      expect(cycle(hand.result)).toHaveLength(1);
      expect(cycle(manifest.result)).toHaveLength(1);
      // And the member that names no one.
      const ghost = (r: { connectorWarnings: { message: string; details?: Record<string, unknown> }[] }) =>
        r.connectorWarnings.filter((w) => /name no user or group/.test(w.message)).map((w) => w.details);
      expect(ghost(hand.result)).toEqual([{ count: 1, sample: [{ group: 'g-eng', member: 'u-ghost' }] }]);
      expect(ghost(manifest.result)).toEqual([{ count: 1, sample: ['u-ghost'] }]);
    } finally {
      await source.close();
    }
  });

  it("on scim-app's own directory, in pages of 2", async () => {
    const { users, groups } = directory();
    const { hand, manifest } = await both(users, groups, 2);
    expect(manifest.result.counts).toEqual(hand.result.counts);
    expect(manifest.result.digest).toBe(hand.result.digest);
    expect(manifest.result.template).toBe('application');
  });

  it('on a directory of shared names, typed and untyped members, primary emails and unknown managers', async () => {
    const { users, groups } = tricky();
    const { hand, manifest } = await both(users, groups, 3);
    // What the digest compares, shown field by field when it differs.
    expect(canonical(manifest.payload)).toEqual(canonical(hand.payload));
    expect(manifest.result.digest).toBe(hand.result.digest);
  });

  it('on 250 users in pages of 100', async () => {
    const { groups } = directory();
    const { hand, manifest } = await both(manyUsers(250), groups, 100);
    expect(manifest.result.counts).toMatchObject({ local_users: 250 });
    expect(manifest.result.digest).toBe(hand.result.digest);
  });
});
