/**
 * The streamed run of a directory: an identity provider's users (and an hris's employees), given as
 * a one-shot async iterable read page by page, are read once, by the pass that validates, hashes
 * and pushes them. A manager may be a user read later; a manager or a group that does not exist is
 * refused with the violation `validate` gives for the whole payload, and nothing is pushed.
 */
import assert from 'node:assert/strict';
import { CONNECTOR_API_VERSION, ValidationError, defineConnector, digest, validate, z } from '@oaakit/core';
import type { Template } from '@oaakit/core';
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
  /** How many people; person i's manager is person i + 1 (read later), the last one has none. */
  people: number;
  /** Gives person i a manager that is nobody. */
  unknownManagerAt?: number;
  /** Puts person i in a group that does not exist. */
  unknownGroupAt?: number;
  /** Gives person i another title, so that it counts as changed. */
  changed?: number[];
}

/** How often the one-shot people source was opened, how many it yielded, and how often it was closed. */
const reads = { opened: 0, items: 0, closed: 0 };

/** The people of `source` a page of 100 at a time, as a directory hands them out. */
async function* pagesOf<T>(source: Source, person: (i: number) => T): AsyncGenerator<T> {
  reads.opened++;
  try {
    for (let start = 0; start < source.people; start += 100) {
      // A page arrives: the next turn of the event loop, as from a socket.
      await new Promise((resolve) => setImmediate(resolve));
      for (let i = start; i < Math.min(start + 100, source.people); i++) {
        reads.items++;
        yield person(i);
      }
    }
  } finally {
    reads.closed++;
  }
}

function idpUser(i: number, source: Source) {
  const manager =
    i === source.unknownManagerAt ? 'u-nobody' : i + 1 < source.people ? `u-${i + 1}` : undefined;
  return {
    name: `user${i}`,
    identity: `u-${i}`,
    email: `user${i}@corp.example`,
    is_active: true,
    groups: [{ identity: i === source.unknownGroupAt ? 'g-nowhere' : `g-${i % 3}` }],
    ...(manager === undefined ? {} : { manager_id: manager }),
    custom_properties: { title: source.changed?.includes(i) ? 'Lead' : 'Engineer' },
  };
}

/** What both connectors return around their streamed people. */
function idpPayload(source: Source, users: unknown) {
  return {
    name: 'Corp Directory',
    idp_type: 'corp_ldap',
    custom_property_definition: { user_properties: { title: 'STRING' } },
    domains: [{ name: 'corp.example' }],
    users,
    groups: [0, 1, 2].map((g) => ({ name: `Group ${g}`, identity: `g-${g}` })),
  };
}

const directory = defineConnector({
  id: 'directory',
  version: '1.0.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'identity_provider',
  configSchema: z.unknown(),
  extract(ctx) {
    const source = ctx.config as Source;
    return idpPayload(
      source,
      pagesOf(source, (i) => idpUser(i, source)),
    ) as never;
  },
});

function employee(i: number, source: Source) {
  const manager =
    i === source.unknownManagerAt ? 'E-nobody' : i + 1 < source.people ? `E${i + 1}` : undefined;
  return {
    id: `E${i}`,
    name: `Employee ${i}`,
    employee_number: String(i),
    first_name: 'Employee',
    last_name: String(i),
    employment_status: 'ACTIVE',
    is_active: true,
    ...(manager === undefined ? {} : { managers: [{ id: manager }] }),
    department: { id: i === source.unknownGroupAt ? 'dept-none' : 'dept-eng' },
  };
}

function hrisPayload(employees: unknown) {
  return {
    name: 'Acme HR',
    hris_type: 'acme_hr',
    system: { id: 'acme', name: 'Acme HR' },
    employees,
    groups: [{ id: 'dept-eng', name: 'Engineering', group_type: 'Department' }],
  };
}

const hr = defineConnector({
  id: 'hr',
  version: '1.0.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'hris',
  configSchema: z.unknown(),
  extract(ctx) {
    const source = ctx.config as Source;
    return hrisPayload(pagesOf(source, (i) => employee(i, source))) as never;
  },
});

/** The payload a connector would give for `source`, whole (its people in a list). */
function whole(template: Template, source: Source): Record<string, unknown> {
  const people = Array.from({ length: source.people }, (_, i) =>
    template === 'hris' ? employee(i, source) : idpUser(i, source),
  );
  return template === 'hris' ? hrisPayload(people) : idpPayload(source, people);
}

function run(
  connector: typeof directory | typeof hr,
  source: Source,
  options: Partial<RunConnectorOptions> = {},
): Promise<RunResult> {
  for (const key of Object.keys(reads) as (keyof typeof reads)[]) reads[key] = 0;
  return runConnector({
    connector,
    config: source,
    provider: connector.id === 'hr' ? 'HR' : 'Directory',
    dataSource: `${connector.id} main`,
    ...(options.dryRun ? {} : { client: h.client() }),
    state: h.state(),
    ...options,
  });
}

/** Payloads the service processed (OAA_PUSH events). */
async function processed(): Promise<number> {
  return (await h.admin.events({ eventType: 'OAA_PUSH' })).length;
}

/** Small request bodies, so that a few thousand users take several multipart chunks. */
const MULTIPART = { push: { maxBodyBytes: 4 * 1024 } };

describe('the streamed run of an identity provider', () => {
  it.each([
    ['a single push', {}],
    ['a multipart upload', MULTIPART],
  ])('reads the users once, managers named before they are read included (%s)', async (_, options) => {
    const source = { people: 2000 };
    // Kept streamed: no user has been read when the pass starts (a materialized payload would hold all).
    let readBeforePass: number | undefined;
    const result = await run(directory, source, {
      ...options,
      onProgress: (e) => {
        if (e.phase === 'validate' && e.kind === 'start') readBeforePass = reads.items;
      },
    });
    assert(result.status === 'pushed');
    expect(readBeforePass).toBe(0);
    expect(reads).toEqual({ opened: 1, items: 2000, closed: 1 });
    expect(result.push.mode).toBe(options === MULTIPART ? 'multipart' : 'single');
    expect(result.counts).toMatchObject({ users: 2000, groups: 3, domains: 1 });
    // The digest of the one pass is the digest of the whole payload.
    expect(result.digest).toBe(digest('identity_provider', whole('identity_provider', source)));
    expect(await processed()).toBe(1);

    // Nothing changed: the entity hashes of the last push say so, and no payload is pushed (a
    // multipart upload sent chunks while the users were read, and is left uncompleted).
    await h.admin.calls.clear();
    const again = await run(directory, source, options);
    expect(again).toMatchObject({
      status: 'skipped',
      diff: { totals: { added: 0, removed: 0, changed: 0 } },
    });
    expect(reads).toEqual({ opened: 1, items: 2000, closed: 1 });
    expect((await h.pushCalls()).filter((c) => c.path.endsWith(':push'))).toEqual([]);
    expect(await processed()).toBe(1);

    const dry = await run(directory, { people: 2000, changed: [5, 6] }, { dryRun: true });
    expect(dry.diff).toMatchObject({ byKind: { users: { added: 0, removed: 0, changed: 2 } } });
  });

  it.each([
    ['a manager_id that names no user', { unknownManagerAt: 11_000 }, 'users[11000].manager_id'],
    ['a group that does not exist', { unknownGroupAt: 11_000 }, 'users[11000].groups[0].identity'],
  ])('refuses %s with the violation of the whole payload, and pushes nothing', async (_, breakage, field) => {
    // Past the serializer's first JSON chunk (1 MiB), so that multipart chunks go out before the end.
    const people = 12_000;
    const first = await run(directory, { people }, MULTIPART);
    assert(first.status === 'pushed');
    const before = { files: await h.stateFiles('directory'), processed: await processed() };
    await h.admin.calls.clear();

    for (const options of [{}, MULTIPART]) {
      const source = { people, ...breakage };
      const error = await rejection(run(directory, source, options));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.code).toBe('VALIDATION_FAILED');
      const expected = validate('identity_provider', whole('identity_provider', source)).errors;
      expect(expected.map((v) => v.field)).toEqual([field]);
      expect((error as ValidationError).violations).toEqual(expected);
      expect(error.message).toContain(`${field}: ${expected[0]!.description}`);
      expect(reads).toEqual({ opened: 1, items: people, closed: 1 });
    }
    const calls = await h.admin.calls.list();
    expect(calls.filter((c) => c.path.endsWith(':push'))).toEqual([]);
    expect(calls.filter((c) => c.path.endsWith(':parts')).length).toBeGreaterThan(2);
    // No payload was processed (a completed upload would be an OAA_PUSH event), and the state is as it was.
    expect(await processed()).toBe(before.processed);
    expect(await h.stateFiles('directory')).toEqual(before.files);
  });
});

describe('the streamed run of an hris', () => {
  it('reads the employees once, and refuses a manager who is no employee with the violation of the whole payload', async () => {
    const source = { people: 1000 };
    let readBeforePass: number | undefined;
    const result = await run(hr, source, {
      onProgress: (e) => {
        if (e.phase === 'validate' && e.kind === 'start') readBeforePass = reads.items;
      },
    });
    assert(result.status === 'pushed');
    expect(readBeforePass).toBe(0);
    expect(reads).toEqual({ opened: 1, items: 1000, closed: 1 });
    expect(result.counts).toMatchObject({ employees: 1000, groups: 1 });
    expect(result.digest).toBe(digest('hris', whole('hris', source)));

    await h.admin.calls.clear();
    const broken = { people: 1000, unknownManagerAt: 700, unknownGroupAt: 10 };
    const error = await rejection(run(hr, broken));
    expect(error.code).toBe('VALIDATION_FAILED');
    const expected = validate('hris', whole('hris', broken)).errors;
    expect(expected.map((v) => v.field).sort()).toEqual([
      'employees[10].department.id',
      'employees[700].managers[0].id',
    ]);
    expect((error as ValidationError).violations).toEqual(expected);
    expect(reads).toEqual({ opened: 1, items: 1000, closed: 1 });
    expect(await h.pushCalls()).toEqual([]);
  });
});
