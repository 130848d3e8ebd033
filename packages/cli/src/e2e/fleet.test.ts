/**
 * A fleet as an operator runs it: a real Redis (`redis-server` on a random port), real
 * `oaa worker` and `oaa daemon --queue` processes of the built binary, and the emulator on port 0 as
 * the target. The emulator's call log is the evidence of what ran. Nothing is timed: every wait
 * polls for a condition with a generous deadline.
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '@oaakit/client';
import { startTestEmulator, until } from '@oaakit/emulator/testing';
import type { CallRecord, TestEmulator } from '@oaakit/emulator/testing';
import { readFleetState, startTestRedis } from '@oaakit/fleet/testing';
import type { TestRedis } from '@oaakit/fleet/testing';
import { readMetrics } from '@oaakit/runner/testing';
import { killAll, startFleetProcess } from '../private-test-helpers/fleet-processes.js';
import type { FleetProcess } from '../private-test-helpers/fleet-processes.js';
import { fixture, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

const EVERY_SECOND = '* * * * * *';
let emulator: TestEmulator;
let work: { dir: string; remove: () => Promise<void> };
let redis: TestRedis | undefined;
const processes: FleetProcess[] = [];

interface JobRow {
  id: string;
  connectorId: string;
  state: string;
  attemptsMade: number;
  failedReason?: string;
}

/** A connector entry of the counter fixture (a new payload on every run), with its own data source. */
function counter(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, plugin: fixture('fleet/counter'), provider: 'Counter', dataSource: `counter ${id}`, ...extra };
}

async function writeConfig(connectors: Record<string, unknown>[]): Promise<void> {
  await writeFile(join(work.dir, 'oaa.config.json'), JSON.stringify({ connectors }, null, 2));
}

/** The password of a test's Redis, when it has one: given to processes as OAA_REDIS_PASSWORD. */
let redisPassword: string | undefined;
/** More environment for every process of a test (the CA of a TLS Redis). */
let extraEnv: Record<string, string> = {};

function env(): Record<string, string> {
  return {
    ...emulator.env,
    OAA_QUEUE_URL: redis!.url,
    ...(redisPassword === undefined ? {} : { OAA_REDIS_PASSWORD: redisPassword }),
    ...extraEnv,
  };
}

async function worker(args: string[] = []): Promise<FleetProcess> {
  const p = await startFleetProcess({
    args: [
      'worker',
      '--port',
      '0',
      ...(args.includes('--lease-seconds') ? [] : ['--lease-seconds', '4']),
      ...(args.includes('--grace-seconds') ? [] : ['--grace-seconds', '5']),
      ...args,
    ],
    cwd: work.dir,
    env: env(),
    startEvent: 'worker.start',
  });
  processes.push(p);
  return p;
}

async function scheduler(): Promise<FleetProcess> {
  const p = await startFleetProcess({
    args: ['daemon', '--queue', redis!.url, '--attempts', '2', '--backoff-seconds', '1'],
    cwd: work.dir,
    env: {
      ...emulator.env,
      ...(redisPassword === undefined ? {} : { OAA_REDIS_PASSWORD: redisPassword }),
    },
    startEvent: 'scheduler.start',
  });
  processes.push(p);
  return p;
}

/** `oaa jobs ...args --json`. */
async function jobs<T>(...args: string[]): Promise<T> {
  const result = await oaa(['jobs', ...args, '--json'], { cwd: work.dir, env: env() });
  if (result.code !== 0)
    throw new Error(`oaa jobs ${args.join(' ')} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  return json<T>(result);
}

/** The successful pushes the emulator answered. */
async function pushes(): Promise<CallRecord[]> {
  return (await emulator.admin.calls.list()).filter(
    (c) => c.method === 'POST' && c.path.endsWith(':push') && c.status === 200,
  );
}

/** The last log lines of every process, for a wait that times out. */
function logs(): string {
  return processes.map((p) => `--- pid ${p.pid}\n${p.stderr().split('\n').slice(-15).join('\n')}`).join('\n');
}

/** Stops the workers and schedulers gracefully, so no run is cut short. */
async function stopAll(): Promise<void> {
  for (const p of processes) p.signal('SIGTERM');
  await Promise.all(processes.map((p) => p.exited));
  processes.length = 0;
}

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  work = await tempDir('oaa-fleet-');
  await emulator.admin.calls.clear();
  await emulator.admin.faults.clear();
});
afterEach(async () => {
  await killAll(processes);
  await redis?.stop();
  redis = undefined;
  redisPassword = undefined;
  extraEnv = {};
  await work.remove();
});

describe('a fleet of workers and schedulers on one Redis', () => {
  it('runs a per-second schedule exactly once per tick across three workers and two schedulers', async () => {
    const server = (redis = await startTestRedis());
    await writeConfig([counter('tick', { schedule: EVERY_SECOND })]);
    await Promise.all([worker(), worker(), worker()]);
    // Started at the same moment, while the workers wait for the first tick: one registers the
    // schedule, the other finds it registered and leaves it as it is.
    const schedulers = await Promise.all([scheduler(), scheduler()]);
    const applied = schedulers.map((s) => s.log.find((l) => l['event'] === 'schedules.applied'));
    expect(applied.map((l) => [l?.['created'], l?.['unchanged']])).toEqual(
      expect.arrayContaining([
        [['tick'], []],
        [[], ['tick']],
      ]),
    );
    await until('eight pushes', async () => ((await pushes()).length >= 8 ? true : undefined), {
      timeoutMs: 90_000,
      intervalMs: 250,
      context: logs,
    });
    const stats = await jobs<{ schedules: string[]; workers: number }>('stats');
    expect(stats.schedules).toEqual(['tick']);
    await stopAll();

    const completed = await jobs<JobRow[]>('list', '--state', 'completed', '--limit', '1000');
    // BullMQ names each scheduled job after its scheduler and tick: one id per tick.
    const ticks = completed.map((j) => Number(/^repeat:connector:tick:(\d+)$/.exec(j.id)?.[1]));
    expect(ticks.every((t) => Number.isInteger(t) && t % 1000 === 0)).toBe(true);
    expect(new Set(ticks).size).toBe(ticks.length);
    // One push per tick: as many pushes as ticks run, though two schedulers and three workers ran.
    const pushed = await pushes();
    expect(pushed.length).toBe(ticks.length);
    const span = (Math.max(...ticks) - Math.min(...ticks)) / 1000 + 1;
    expect(pushed.length).toBeLessThanOrEqual(span);
    // The runs of several workers shared one state: their counter went 1, 2, 3, ... without a gap.
    const state = await readFleetState(server.url, 'tick');
    expect(state?.connectorState).toEqual({ runs: pushed.length });
  });

  it('retries the job of a worker killed mid-push on another worker: one complete push, consistent state', async () => {
    const server = (redis = await startTestRedis());
    await writeConfig([counter('slow')]);
    await Promise.all([worker(), worker()]);
    // The first push waits 8 s in the emulator before it is read: long enough to kill its worker.
    await emulator.admin.faults.add({ method: 'POST', path: '*:push', latency_ms: 8_000, count: 1 });
    const [job] = await jobs<JobRow[]>('enqueue', 'slow');
    await until(
      'the slow push to reach the emulator',
      async () => ((await emulator.admin.faults.list()).length === 0 ? true : undefined),
      { context: logs },
    );
    const reachedAt = Date.now();
    const pushing = processes.find((p) =>
      p.log.some((l) => l['event'] === 'run.start' && l['jobId'] === job!.id),
    );
    expect(pushing).toBeDefined();
    pushing!.signal('SIGKILL');
    await pushing!.exited;
    const survivor = processes.find((p) => p !== pushing)!;
    const done = await until(
      'another worker to finish the job',
      async () => {
        const shown = await jobs<JobRow & { result?: { status: string; worker: string } }>('show', job!.id);
        return shown.state === 'completed' ? shown : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500, context: logs },
    );
    expect(done.result?.status).toBe('pushed');
    expect(done.result?.worker).toBe(
      `${survivor.log.find((l) => l['event'] === 'worker.start')?.['worker'] as string}`,
    );
    // Past the killed push's latency, the emulator would have answered it had it read it: it did not.
    await until(
      'the killed push to be past its latency',
      () => (Date.now() > reachedAt + 10_000 ? true : undefined),
      {
        timeoutMs: 30_000,
      },
    );
    // One complete push reached the data source; the killed worker's was never read.
    const pushed = await pushes();
    expect(pushed).toHaveLength(1);
    const state = await readFleetState(server.url, 'slow');
    const client = createClient({ url: emulator.url, apiKey: emulator.apiKey });
    const [provider] = await client.providers.list().toArray();
    expect(state).toMatchObject({ provider: { id: provider!.id }, connectorState: { runs: 1 } });
    expect(pushed[0]!.path).toContain(state!.dataSource.id);
  });

  it('rides out a Redis crash and restart (persistence on): schedules and workers reconnect, no tick runs twice', async () => {
    const server = (redis = await startTestRedis({ persistence: true }));
    const hold = join(work.dir, 'hold');
    await writeConfig([counter('steady', { schedule: EVERY_SECOND, config: { hold } })]);
    // Leases that outlast the outage: the held run below keeps its job and its data source.
    await Promise.all([worker(['--lease-seconds', '60']), worker(['--lease-seconds', '60'])]);
    const sched = await scheduler();
    await until('three pushes', async () => ((await pushes()).length >= 3 ? true : undefined), {
      timeoutMs: 60_000,
      context: logs,
    });
    // Redis goes down while a run holds the data source and has not pushed: no run is between its
    // push and its commit, where it would push again (see docs/fleet.md), which is not what this
    // test is about.
    await writeFile(hold, '');
    await until('a run to hold the data source', () => existsSync(`${hold}.held`), { context: logs });
    await server.kill();
    const before = (await pushes()).length;
    await until(
      'every process to notice',
      () =>
        processes.every((p) => p.stderr().includes('ECONNREFUSED') || p.stderr().includes('redis.error'))
          ? true
          : undefined,
      { timeoutMs: 30_000, context: logs },
    );
    await server.start();
    await rm(hold);
    await until('three more pushes', async () => ((await pushes()).length >= before + 3 ? true : undefined), {
      timeoutMs: 90_000,
      context: logs,
    });
    // The scheduler applies the schedules again once its connection is back; with persistence on,
    // Redis still holds the schedule, which the scheduler leaves as it is.
    const reapplied = await until(
      'the scheduler to apply the schedules again',
      () => sched.log.filter((l) => l['event'] === 'schedules.applied')[1],
      { timeoutMs: 60_000, context: logs },
    );
    expect(sched.log.some((l) => l['event'] === 'redis.reconnected')).toBe(true);
    expect(reapplied).toMatchObject({ created: [], unchanged: ['steady'] });
    await stopAll();
    const completed = await jobs<JobRow[]>('list', '--state', 'completed', '--limit', '1000');
    const ticks = completed.map((j) => j.id);
    expect(new Set(ticks).size).toBe(ticks.length);
    const pushed = await pushes();
    // Every run pushed once and counted once in the shared state: no tick ran twice.
    expect((await readFleetState(server.url, 'steady'))?.connectorState).toEqual({ runs: pushed.length });
    expect(pushed.length).toBe(completed.length);
  });

  it('keeps a job that exhausts its retries in the failed list; oaa jobs retry runs it again', async () => {
    redis = await startTestRedis();
    await writeConfig([counter('broken', { config: { fail: true } })]);
    const [w] = await Promise.all([worker()]);
    const [job] = await jobs<JobRow[]>('enqueue', 'broken', '--attempts', '3', '--backoff-seconds', '1');
    const failed = await until(
      'the job to fail for good',
      async () => (await jobs<JobRow[]>('list')).find((j) => j.id === job!.id),
      { timeoutMs: 60_000, intervalMs: 500, context: logs },
    );
    expect(failed).toMatchObject({ connectorId: 'broken', state: 'failed', attemptsMade: 3 });
    expect(failed.failedReason).toContain('EXTRACT_FAILED');
    expect(w.log.filter((l) => l['event'] === 'run.end' && l['jobId'] === job!.id)).toHaveLength(3);
    expect(await pushes()).toHaveLength(0);
    const metrics = await readMetrics(w.url);
    expect(metrics.get('oaa_connector_failures_total{connector="broken",code="EXTRACT_FAILED"}')).toBe(3);

    // The source is fixed; the kept job runs again and pushes.
    await writeConfig([counter('broken')]);
    w.signal('SIGHUP');
    await until('the worker to reload', () => w.log.find((l) => l['event'] === 'config.reload'), {
      context: logs,
    });
    await jobs('retry', job!.id);
    await until(
      'the retried job to complete',
      async () => ((await jobs<JobRow>('show', job!.id)).state === 'completed' ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 500, context: logs },
    );
    expect(await pushes()).toHaveLength(1);
    expect(await jobs<JobRow[]>('list')).toEqual([]);
  });

  it('drains 200 connectors on 4 workers, the queue depth metric going to zero', async () => {
    redis = await startTestRedis();
    const ids = Array.from({ length: 200 }, (_, i) => `c${String(i).padStart(3, '0')}`);
    await writeConfig(ids.map((id) => counter(id)));
    const workers = await Promise.all([
      worker(['--concurrency', '2']),
      worker(['--concurrency', '2']),
      worker(['--concurrency', '2']),
      worker(['--concurrency', '2']),
    ]);
    const health = await fetch(`${workers[0].url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', redis: 'ready', concurrency: 2, running: [] });
    const depth = async (): Promise<number | undefined> =>
      (await readMetrics(workers[0].url)).get('oaa_fleet_queue_depth');
    expect(await depth()).toBe(0);
    const added = await jobs<JobRow[]>('enqueue', '--all');
    expect(added).toHaveLength(200);
    let deepest = 0;
    await until(
      'the queue to drain',
      async () => {
        const m = await readMetrics(workers[0].url);
        deepest = Math.max(deepest, m.get('oaa_fleet_queue_depth') ?? 0);
        return m.get('oaa_fleet_queue_depth') === 0 &&
          m.get('oaa_fleet_queue_jobs{state="completed"}') === 200
          ? true
          : undefined;
      },
      { timeoutMs: 180_000, intervalMs: 1_000, context: logs },
    );
    expect(deepest).toBeGreaterThan(0);
    expect(await pushes()).toHaveLength(200);
    // Every worker took a share of the runs.
    for (const w of workers) expect(w.log.filter((l) => l['event'] === 'run.end').length).toBeGreaterThan(0);
    const stats = await jobs<{ counts: Record<string, number>; workers: number }>('stats');
    expect(stats.counts).toMatchObject({ waiting: 0, active: 0, failed: 0, completed: 200 });
    expect(stats.workers).toBe(4);
  });

  it('updates the schedules in Redis when a scheduler reloads its config on SIGHUP', async () => {
    redis = await startTestRedis();
    const hourly = '0 0 * * * *';
    await writeConfig([counter('a', { schedule: hourly }), counter('b', { schedule: hourly })]);
    const sched = await scheduler();
    expect((await jobs<{ schedules: string[] }>('stats')).schedules).toEqual(['a', 'b']);
    await writeConfig([
      counter('a', { schedule: hourly }),
      counter('c', { schedule: hourly, timezone: 'Europe/Berlin' }),
    ]);
    sched.signal('SIGHUP');
    await until('the reload', () => sched.log.find((l) => l['event'] === 'config.reload'), { context: logs });
    expect(sched.log.find((l) => l['event'] === 'config.reload')).toMatchObject({ ok: true });
    expect((await jobs<{ schedules: string[] }>('stats')).schedules).toEqual(['a', 'c']);
    // Each schedule has its next tick queued once, as a delayed job.
    const delayed = await jobs<JobRow[]>('list', '--state', 'delayed');
    expect(delayed.map((j) => j.connectorId).sort()).toEqual(['a', 'c']);
  });

  it('returns the in-flight job to the queue when SIGTERM outlasts the grace period; a password-protected Redis', async () => {
    redisPassword = 'fleet-redis-pw-4c1f9';
    redis = await startTestRedis({ password: redisPassword });
    await writeConfig([counter('held')]);
    const first = await worker(['--grace-seconds', '1']);
    // The push waits a minute in the emulator: longer than the grace period.
    await emulator.admin.faults.add({ method: 'POST', path: '*:push', latency_ms: 60_000, count: 1 });
    const [job] = await jobs<JobRow[]>('enqueue', 'held');
    await until(
      'the push to reach the emulator',
      async () => ((await emulator.admin.faults.list()).length === 0 ? true : undefined),
      { context: logs },
    );
    first.signal('SIGTERM');
    expect(await first.exited).toBe(130);
    expect(first.log.find((l) => l['event'] === 'run.returned')).toMatchObject({ jobId: job!.id });
    // Back in the queue, not counted as a failed attempt.
    expect(await jobs<JobRow>('show', job!.id)).toMatchObject({ state: 'waiting', attemptsMade: 0 });
    await worker();
    await until(
      'another worker to run it',
      async () => ((await jobs<JobRow>('show', job!.id)).state === 'completed' ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 500, context: logs },
    );
    expect(await pushes()).toHaveLength(1);
    // Neither the Redis password nor the API key shows in any log line or job.
    const shown = JSON.stringify(await jobs('show', job!.id));
    for (const text of [shown, first.stderr(), ...processes.map((p) => p.stderr())]) {
      expect(text).not.toContain(redisPassword);
      expect(text).not.toContain(emulator.apiKey);
    }
  });

  it('works over TLS (rediss://), verifying the server certificate', async () => {
    redis = await startTestRedis({ tls: true });
    await writeConfig([counter('secure')]);
    // Without the CA, the certificate is refused: Redis is unavailable, nothing runs.
    const refused = await oaa(['jobs', 'stats', '--json'], { cwd: work.dir, env: env() });
    expect(refused.code).toBe(4);
    expect(json<{ error: { code: string } }>(refused).error.code).toBe('REDIS_UNAVAILABLE');
    extraEnv = { NODE_EXTRA_CA_CERTS: redis.caFile! };
    await worker();
    const [job] = await jobs<JobRow[]>('enqueue', 'secure');
    await until(
      'the job to complete over TLS',
      async () => ((await jobs<JobRow>('show', job!.id)).state === 'completed' ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 500, context: logs },
    );
    expect(await pushes()).toHaveLength(1);
  });

  it('runs each connector on a worker whose --connectors pattern matches it', async () => {
    redis = await startTestRedis();
    await writeConfig([counter('eu-hr'), counter('us-hr')]);
    const eu = await worker(['--connectors', 'eu-*']);
    const us = await worker(['--connectors', 'us-*']);
    const added = await jobs<JobRow[]>('enqueue', 'eu-hr', 'us-hr', 'eu-hr');
    await until(
      'the three jobs to complete',
      async () => ((await jobs<JobRow[]>('list', '--state', 'completed')).length === 3 ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 500, context: logs },
    );
    const ran = (p: FleetProcess): string[] =>
      p.log.filter((l) => l['event'] === 'run.end').map((l) => String(l['connector']));
    expect(ran(eu)).toEqual(['eu-hr', 'eu-hr']);
    expect(ran(us)).toEqual(['us-hr']);
    expect(added).toHaveLength(3);
  });

  it('delays each scheduled run by a random part of the connector jitter, without running a tick twice', async () => {
    redis = await startTestRedis();
    await writeConfig([counter('jit', { schedule: EVERY_SECOND, jitterSeconds: 2 })]);
    const w = await worker(['--concurrency', '4']);
    await scheduler();
    const ended = (): Record<string, unknown>[] => w.log.filter((l) => l['event'] === 'run.end');
    await until('four runs', () => (ended().length >= 4 ? true : undefined), {
      timeoutMs: 60_000,
      context: logs,
    });
    await stopAll();
    for (const end of ended()) {
      const jittered = w.log.find((l) => l['event'] === 'run.jittered' && l['jobId'] === end['jobId']);
      const start = w.log.find((l) => l['event'] === 'run.start' && l['jobId'] === end['jobId']);
      const delayMs = Number(jittered?.['delayMs']);
      expect(delayMs).toBeGreaterThanOrEqual(0);
      expect(delayMs).toBeLessThan(2_000);
      // The run starts no earlier than its jitter allows.
      expect(Number(start?.['time'])).toBeGreaterThanOrEqual(Number(jittered?.['time']) + delayMs);
    }
    const jitteredJobs = w.log.filter((l) => l['event'] === 'run.jittered').map((l) => l['jobId']);
    expect(new Set(jitteredJobs).size).toBe(jitteredJobs.length);
    expect((await readFleetState(redis.url, 'jit'))?.connectorState).toEqual({
      runs: (await pushes()).length,
    });
  });
});
