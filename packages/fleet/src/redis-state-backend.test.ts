import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateStore } from '@oaakit/runner';
import type { StoredState } from '@oaakit/runner';
import { writeHashSnapshot } from '@oaakit/runner/testing';
import { RedisStateBackend } from './redis-state-backend.js';
import { startTestRedis } from './testing/redis-server.js';
import type { TestRedis } from './testing/redis-server.js';

let redis: TestRedis;
let connection: Redis;
beforeAll(async () => {
  redis = await startTestRedis();
  connection = new Redis(redis.url);
});
afterAll(async () => {
  connection.disconnect();
  await redis.stop();
});

function state(id: string, digest: string, snapshot: string): StoredState {
  return {
    version: 1,
    connectorId: id,
    plugin: { id: 'hr', version: '1.0.0' },
    template: 'hris',
    provider: { id: 'p1', name: 'HR' },
    dataSource: { id: 'd1', name: 'main' },
    digest,
    counts: { employees: 1 },
    snapshot,
    pushedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    connectorState: { cursor: digest },
  };
}

async function push(store: StateStore, id: string, digest: string): Promise<void> {
  const lock = await store.lock(id);
  try {
    await store.read(id);
    const snapshot = await store.openSnapshot(id, digest);
    await writeHashSnapshot(snapshot, 'hris', { employees: [{ id: digest, name: `E${digest}` }] });
    await store.commit(id, {
      state: state(id, digest, snapshot.name),
      report: { status: 'pushed' },
      snapshot,
    });
  } finally {
    await lock.release();
  }
}

describe('the state of a fleet in Redis', () => {
  it('reads back what any store committed, keeping only the current snapshot', async () => {
    await push(new StateStore(new RedisStateBackend(connection)), 'a', 'aa11');
    const other = new StateStore(new RedisStateBackend(connection));
    await push(other, 'a', 'bb22');
    const read = await other.read('a');
    expect(read).toMatchObject({ digest: 'bb22', connectorState: { cursor: 'bb22' } });
    const hashes = await other.readSnapshot('a', read!);
    const labels: string[] = [];
    for await (const e of hashes.entries()) labels.push(e.label);
    expect(labels).toEqual(['Ebb22']);
    expect(await other.readReport('a')).toEqual({ status: 'pushed' });
    expect((await other.backend.names('a')).sort()).toEqual([
      'last-run.json',
      'snapshot-bb22.hashes.gz',
      'state.json',
    ]);
    expect(await other.list()).toContain('a');
  });

  it('refuses the commit of a run that read the state before another run committed', async () => {
    const late = new StateStore(new RedisStateBackend(connection));
    await late.read('b');
    await push(new StateStore(new RedisStateBackend(connection)), 'b', 'cc33');
    await expect(
      late.commit('b', { state: state('b', 'dd44', 'snapshot-cc33.hashes.gz') }),
    ).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
    });
    expect(await late.read('b')).toMatchObject({ digest: 'cc33' });
  });

  it('holds one lock per data source, refuses a second holder, and refuses a commit once the lease ran out', async () => {
    const store = new StateStore(new RedisStateBackend(connection, { leaseMs: 300 }));
    const lock = await store.lock('c');
    await expect(new StateStore(new RedisStateBackend(connection)).lock('c')).rejects.toMatchObject({
      code: 'STATE_LOCKED',
      message: expect.stringContaining(`pid ${process.pid}`) as unknown,
    });
    await store.read('c');
    // A holder paused past its lease (no renewal) and overtaken by another run.
    await connection.set('oaa:lock:c', JSON.stringify({ token: 'someone-else' }));
    await expect(
      store.commit('c', { state: state('c', 'ee55', 'snapshot-ee55.hashes.gz') }),
    ).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
    });
    expect(await store.read('c')).toBeUndefined();
    await lock.release();
    expect(await connection.get('oaa:lock:c')).toBe(JSON.stringify({ token: 'someone-else' }));
  });
});
