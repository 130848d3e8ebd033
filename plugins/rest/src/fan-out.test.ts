/**
 * Fan-out (`for_each`) and partitions: children read in parent order with at most `concurrency`
 * request chains at once, the bound reached and never passed. The HTTP source holds every child
 * request until the test lets it go, so the count of requests in flight is exact, not a matter
 * of timing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { orderedFanOut } from './engine/fan-out.js';
import { extract, readAll, serve, type Source } from './private-test-helpers/source.js';

let source: Source | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

/** A promise and its resolve. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves once every callback already queued (promise jobs, then I/O-free immediates) has run. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('orderedFanOut', () => {
  it('starts a producer only when the window has room, and keeps source order', async () => {
    const gates = Array.from({ length: 6 }, () => deferred());
    const started: number[] = [];
    let pulled = 0;
    async function* parents() {
      for (let i = 0; i < 6; i++) {
        pulled += 1;
        yield await Promise.resolve(i);
      }
    }
    const out: string[] = [];
    const done = (async () => {
      const controller = new AbortController();
      for await (const item of orderedFanOut(
        parents(),
        3,
        async function* (i) {
          started.push(i);
          await gates[i]!.promise;
          yield `${i}a`;
          yield `${i}b`;
        },
        controller.signal,
      ))
        out.push(item);
    })();
    await settled();
    // Three producers run; the fourth parent is not even read.
    expect(started).toEqual([0, 1, 2]);
    expect(pulled).toBe(3);
    // The later ones finishing first changes nothing: the first holds the window.
    gates[2]!.resolve();
    gates[1]!.resolve();
    await settled();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    await settled();
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    for (const g of gates) g.resolve();
    await done;
    expect(out).toEqual(['0a', '0b', '1a', '1b', '2a', '2b', '3a', '3b', '4a', '4b', '5a', '5b']);
  });

  it("throws a producer's error when its turn comes, and stops the others", async () => {
    const controller = new AbortController();
    const aborted: boolean[] = [];
    const run = async () => {
      const out: number[] = [];
      for await (const item of orderedFanOut(
        (async function* () {
          for (const i of [0, 1, 2]) yield await Promise.resolve(i);
        })(),
        2,
        async function* (i, signal) {
          if (i === 1) throw new Error('child 1 failed');
          yield i;
          if (i === 0) return;
          if (!signal.aborted)
            await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          aborted.push(signal.aborted);
        },
        controller.signal,
      ))
        out.push(item);
      return out;
    };
    await expect(run()).rejects.toThrow('child 1 failed');
    await settled();
    // The third producer, still waiting, was told to stop.
    expect(aborted).toEqual([true]);
  });
});

describe('for_each over a real source', () => {
  it("reads each project's memberships, at most 3 at once, in project order", async () => {
    const projects = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: `p${i + 1}` }));
    const held: (() => void)[] = [];
    let inFlight = 0;
    let most = 0;
    let reachedBound: () => void;
    const reached = new Promise<void>((resolve) => (reachedBound = resolve));
    let releasing = false;
    source = await serve(async (req) => {
      if (req.path === '/projects.json') return { json: { projects, total_count: projects.length } };
      const id = Number(/\/projects\/(\d+)\//.exec(req.path)?.[1]);
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (inFlight === 3) reachedBound();
      // Held until the test lets go (then every later request is answered at once).
      if (!releasing) await new Promise<void>((resolve) => held.push(resolve));
      inFlight -= 1;
      return { json: { memberships: [{ user: `u${id}a` }, { user: `u${id}b` }] } };
    });
    const text = `version: 1
id: fan-out
vars:
  url: { description: the source }
source:
  base_url: '{{ vars.url }}'
streams:
  projects:
    path: /projects.json
    records: projects
  memberships:
    for_each: projects
    concurrency: 3
    path: /projects/{{ record.id }}/memberships.json
    records: memberships
payload:
  template: application
  application: '{ "name": "T", "application_type": "T" }'
  local_users:
    stream: memberships
    map: '{ "name": user, "custom_properties": { "project": $parent.name } }'
`;
    const reading = extract(text, { url: source.url });
    await reached;
    // Three requests are held by the source: had the engine sent a fourth, it would be counted too.
    expect(held).toHaveLength(3);
    releasing = true;
    for (const release of held.splice(0)) release();
    const payload = (await reading) as {
      applications: { local_users: { name: string; custom_properties: { project: string } }[] }[];
    };
    const users = payload.applications[0]!.local_users;
    expect(users.map((u) => u.name)).toEqual(projects.flatMap((p) => [`u${p.id}a`, `u${p.id}b`]));
    expect(users[2]).toEqual({ name: 'u2a', custom_properties: { project: 'p2' } });
    expect(most).toBe(3);
    expect(source.requests.filter((r) => r.path.startsWith('/projects/'))).toHaveLength(8);
  });

  it('reads a stream once per partition, each record knowing its partition', async () => {
    source = await serve((req) => ({
      json: { users: [{ login: `s${req.query['status']}-${req.query['role']}` }] },
    }));
    const text = `version: 1
id: partitions
vars:
  url: { description: the source }
source:
  base_url: '{{ vars.url }}'
streams:
  users:
    path: /users.json
    params: { role: staff, status: 9 }
    partitions:
      - { status: 1 }
      - { status: 3 }
      - { status: 2 }
    records: users
payload:
  template: application
  application: '{ "name": "T", "application_type": "T" }'
  local_users:
    stream: users
    map: '{ "name": login, "is_active": $partition.status = 1 }'
`;
    const payload = (await extract(text, { url: source.url })) as {
      applications: { local_users: unknown[] }[];
    };
    expect(payload.applications[0]!.local_users).toEqual([
      { name: 's1-staff', is_active: true },
      { name: 's3-staff', is_active: false },
      { name: 's2-staff', is_active: false },
    ]);
    expect(source.requests.map((r) => r.query)).toEqual([
      { role: 'staff', status: '1' },
      { role: 'staff', status: '3' },
      { role: 'staff', status: '2' },
    ]);
    expect(await readAll(text, 'users', { url: source.url })).toHaveLength(3);
  });
});
