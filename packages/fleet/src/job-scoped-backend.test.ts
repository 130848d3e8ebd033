import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateStore } from '@oaakit/runner';
import type { StoredState } from '@oaakit/runner';
import { JobScopedBackend, jobCommitted } from './job-scoped-backend.js';
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

const state: StoredState = {
  version: 1,
  connectorId: 'hr',
  plugin: { id: 'hr', version: '1.0.0' },
  template: 'hris',
  provider: { id: 'p1', name: 'HR' },
  dataSource: { id: 'd1', name: 'main' },
  digest: 'aa',
  counts: {},
  snapshot: 'snapshot-aa.hashes.gz',
  pushedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  connectorState: {},
};

describe('the job that committed a state', () => {
  it('is recorded with the commit, so a job run again after its commit is recognized', async () => {
    const backend = new RedisStateBackend(connection);
    expect(await jobCommitted(backend, 'hr', 'repeat:connector:hr:1000')).toBe(false);
    const store = new StateStore(new JobScopedBackend(connection, 'repeat:connector:hr:1000'));
    await store.read('hr');
    await store.commit('hr', { state });
    expect(await jobCommitted(backend, 'hr', 'repeat:connector:hr:1000')).toBe(true);
    expect(await jobCommitted(backend, 'hr', 'repeat:connector:hr:2000')).toBe(false);
    // A refused commit records nothing.
    const late = new StateStore(new JobScopedBackend(connection, 'late'));
    await late.read('hr');
    await store.read('hr');
    await store.commit('hr', { state: { ...state, digest: 'bb' } });
    await expect(late.commit('hr', { state })).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
    expect(await jobCommitted(backend, 'hr', 'late')).toBe(false);
  });
});
