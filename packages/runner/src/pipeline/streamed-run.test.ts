/**
 * The streamed run: a connector's streamed collections are read once, in the pass that
 * validates, hashes, diffs and pushes them; an invalid entity partway, or a deletion the guard
 * refuses, sends nothing the service would take as a payload; the diff comes from entity hashes.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CONNECTOR_API_VERSION, ValidationError, defineConnector, digest, z } from '@oaakit/core';
import type { LocalUser } from '@oaakit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness } from '../private-test-helpers/harness.js';
import type { Harness } from '../private-test-helpers/harness.js';
import { rejection } from '../private-test-helpers/rejection.js';
import { runConnector } from './run-connector.js';
import type { RunConnectorOptions, RunResult } from './run-types.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

interface Source {
  /** Users by index; `invalidAt` makes that one invalid (a group that does not exist). */
  users: number[];
  invalidAt?: number;
  /** Gives user i another department, so it counts as changed. */
  changed?: number[];
}

/** How often the one-shot sources were opened, how many items they yielded, and how often users' was closed. */
const reads = { users: 0, grants: 0, userItems: 0, grantItems: 0, usersClosed: 0 };

function user(i: number, source: Source): LocalUser {
  return {
    name: `User${i}`,
    identities: [`user${i}@example.com`],
    groups: i === source.invalidAt ? ['no-such-group'] : ['staff'],
    is_active: true,
    custom_properties: { department: source.changed?.includes(i) ? 'moved' : 'dept' },
  };
}

/** A connector whose users and grants are one-shot generators: a second read would find them empty. */
const connector = defineConnector({
  id: 'streamed',
  version: '1.0.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  configSchema: z.unknown(),
  extract(ctx) {
    const source = ctx.config as Source;
    function* users() {
      reads.users++;
      try {
        for (const i of source.users) {
          reads.userItems++;
          yield user(i, source);
        }
      } finally {
        // Where a real source releases its cursor or file.
        reads.usersClosed++;
      }
    }
    function* grants() {
      reads.grants++;
      for (const i of source.users) {
        reads.grantItems++;
        yield {
          identity: `User${i}`,
          identity_type: 'local_user' as const,
          role_assignments: [{ application: 'app', role: 'reader', apply_to_application: true }],
        };
      }
    }
    return {
      custom_property_definition: {
        applications: [{ application_type: 'app', local_user_properties: { department: 'STRING' } }],
      },
      applications: [
        {
          name: 'app',
          application_type: 'app',
          local_users: users(),
          local_groups: [{ name: 'staff' }],
          local_roles: [{ name: 'reader', permissions: ['read'] }],
        },
      ],
      permissions: [{ name: 'read', permission_type: ['DataRead'] }],
      identity_to_permissions: grants(),
    } as never;
  },
});

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

function run(source: Source, options: Partial<RunConnectorOptions> = {}): Promise<RunResult> {
  for (const key of Object.keys(reads) as (keyof typeof reads)[]) reads[key] = 0;
  return runConnector({
    connector,
    connectorId: 'streamed',
    config: source,
    provider: 'Streamed',
    dataSource: 'streamed main',
    ...(options.dryRun ? {} : { client: h.client() }),
    state: h.state(),
    ...options,
  });
}

/** What the service holds: payloads it processed (OAA_PUSH events) and the graph's node counts. */
async function serviceSide(dataSourceId: string) {
  const events = await h.admin.events({ eventType: 'OAA_PUSH' });
  return { pushes: events.length, nodes: (await h.admin.graph.stats(dataSourceId)).nodes };
}

/** Small request bodies, so that a few thousand users take several multipart chunks. */
const MULTIPART = { push: { maxBodyBytes: 4 * 1024 } };

describe('the streamed run', () => {
  it.each([
    ['a single push', {}],
    ['a multipart upload', MULTIPART],
  ])('reads one-shot users and grants exactly once in a run that pushes (%s)', async (_, options) => {
    const source = { users: range(2000) };
    const result = await run(source, options);
    assert(result.status === 'pushed');
    expect(reads).toEqual({ users: 1, grants: 1, userItems: 2000, grantItems: 2000, usersClosed: 1 });
    expect(result.push.mode).toBe(options === MULTIPART ? 'multipart' : 'single');
    expect(result.counts).toMatchObject({ local_users: 2000, identity_to_permissions: 2000 });
    // The digest of the one pass is the digest of the whole payload.
    const whole = {
      ...(connector.extract as never as (c: unknown) => Record<string, unknown>)({ config: source }),
    };
    const apps = whole.applications as { local_users: Iterable<unknown> }[];
    apps[0]!.local_users = [...apps[0]!.local_users];
    whole.identity_to_permissions = [...(whole.identity_to_permissions as Iterable<unknown>)];
    expect(result.digest).toBe(digest('application', whole));
    const side = await serviceSide(result.dataSource.id);
    expect(side.pushes).toBe(1);
    expect(side.nodes).toMatchObject({ 'OAA.app.User': 2000 });
  });

  it.each([
    ['a single push', {}],
    ['a multipart upload', MULTIPART],
  ])('pushes nothing when an entity partway is invalid (%s)', async (_, options) => {
    // Past the serializer's first JSON chunk (1 MiB), so that multipart chunks go out before the end.
    const users = range(12_000);
    const first = await run({ users }, options);
    assert(first.status === 'pushed');
    const before = { files: await h.stateFiles('streamed'), service: await serviceSide(first.dataSource.id) };
    await h.admin.calls.clear();

    const error = await rejection(run({ users, invalidAt: 11_000, changed: [1] }, options));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toContain('connector "streamed"');
    expect((error as ValidationError).violations.map((v) => v.field)).toContain(
      'applications[0].local_users[11000].groups[0]',
    );
    expect(reads.users).toBe(1);
    // Read to its end (every violation is listed), and closed.
    expect(reads.usersClosed).toBe(1);
    const calls = await h.admin.calls.list();
    expect(calls.filter((c) => c.path.endsWith(':push'))).toEqual([]);
    // Multipart: chunks went out while the users were read, then the upload was left uncompleted.
    if (options === MULTIPART)
      expect(calls.filter((c) => c.path.endsWith(':parts')).length).toBeGreaterThan(2);
    // The call log does not record a multipart call's operation: a completed upload would show as
    // a processed payload (an OAA_PUSH event) and a changed graph.
    expect(await serviceSide(first.dataSource.id)).toEqual(before.service);
    expect(await h.stateFiles('streamed')).toEqual(before.files);
  });

  it('fails a dry run that saves the payload when a streamed user is invalid, and saves nothing', async () => {
    // A small payload is serialized at once: its error must wait for the reader of the file.
    const path = join(h.dir, 'saved', 'payload.json');
    const error = await rejection(
      run({ users: range(3), invalidAt: 1 }, { dryRun: true, savePayload: path }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect((error as ValidationError).violations.map((v) => v.field)).toEqual([
      'applications[0].local_users[1].groups[0]',
    ]);
    expect(await readdir(dirname(path))).toEqual([]);
  });

  it('refuses a mass deletion before the push completes, naming who would go, and leaves everything as it was', async () => {
    const first = await run({ users: range(50) }, MULTIPART);
    assert(first.status === 'pushed');
    const before = { files: await h.stateFiles('streamed'), service: await serviceSide(first.dataSource.id) };
    await h.admin.calls.clear();

    for (const options of [{}, MULTIPART]) {
      const refused = await rejection(run({ users: range(30) }, options));
      expect(refused.code).toBe('DELETION_GUARD');
      expect(refused.message).toContain('remove 20 of 50 local_users (40%, more than the allowed 20%)');
      expect(refused.details.removedNames).toEqual(expect.arrayContaining(['User30', 'User49']));
      expect(refused.hints.join(' ')).toContain('removed, among others: User');
    }
    expect((await h.admin.calls.list()).filter((c) => c.path.endsWith(':push'))).toEqual([]);
    expect(await serviceSide(first.dataSource.id)).toEqual(before.service);
    expect(await h.stateFiles('streamed')).toEqual(before.files);

    const forced = await run({ users: range(30) }, { force: true });
    expect(forced).toMatchObject({ status: 'pushed', guard: { forced: true, removed: 20 } });
    expect((await serviceSide(first.dataSource.id)).nodes).toMatchObject({ 'OAA.app.User': 30 });
  });

  it('diffs a dry run from the entity hashes of the last push: added, removed (by name) and changed', async () => {
    await run({ users: range(20) });
    await h.admin.calls.clear();
    const dry = await run({ users: [...range(18), 20, 21, 22], changed: [3, 4] }, { dryRun: true });
    expect(dry).toMatchObject({
      status: 'dry-run',
      diff: {
        firstPush: false,
        headerChanged: false,
        byKind: {
          local_users: { added: 3, removed: 2, changed: 2 },
          identity_to_permissions: { added: 3, removed: 2, changed: 0 },
        },
        totals: { added: 6, removed: 4, changed: 2 },
        removedNames: { local_users: ['User18', 'User19'] },
      },
      guard: { removed: 2, previous: 20, refused: false },
    });
    expect(dry.diff.removedNames?.identity_to_permissions?.sort()).toEqual([
      'local_user:user18',
      'local_user:user19',
    ]);
    expect(reads).toMatchObject({ users: 1, grants: 1 });
    expect(await h.admin.calls.list()).toEqual([]);

    // Unchanged data: no push, and the state's diff says nothing changed.
    const again = await run({ users: range(20) });
    expect(again).toMatchObject({
      status: 'skipped',
      diff: { totals: { added: 0, removed: 0, changed: 0 } },
    });
    expect(await h.pushCalls()).toEqual([]);
  });
});
