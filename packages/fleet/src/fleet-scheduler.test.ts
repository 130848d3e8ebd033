/**
 * Schedulers registering the connectors' schedules in a real Redis (`redis-server` on a free port),
 * several at once, while a real BullMQ worker takes the ticks. The schedules are yearly, so their
 * next tick is months away and every scheduler reads its clock before it; the test brings a tick's
 * time forward by promoting its job, and a worker takes it when the test says. Schedulers started at
 * the same moment are started together (`Promise.all`), nothing waits on time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '@oaakit/emulator/testing';
import { createLogger, loadConfig } from '@oaakit/runner';
import type { LoadedConfig } from '@oaakit/runner';
import { KEY_PREFIX, RUNS_QUEUE } from './connection.js';
import { startFleetScheduler } from './fleet-scheduler.js';
import type { FleetScheduler } from './fleet-scheduler.js';
import { startTickTaker } from './private-test-helpers/tick-taker.js';
import type { TickTaker } from './private-test-helpers/tick-taker.js';
import { parseRedisUrl } from './redis-url.js';
import type { RunJobData } from './run-jobs.js';
import { startTestRedis } from './testing/redis-server.js';
import type { TestRedis } from './testing/redis-server.js';

const TICK_PLUGIN = resolve(dirname(fileURLToPath(import.meta.url)), '../test-fixtures/tick');
/** Midnight on the first of January, and on the first of July. */
const NEW_YEAR = '0 0 0 1 1 *';
const MID_YEAR = '0 0 0 1 7 *';

let redis: TestRedis;
let connection: Redis;
let queue: Queue<RunJobData>;
let dir: string;
let taker: TickTaker;
const running: FleetScheduler[] = [];
/** The log lines of every scheduler started, by scheduler. */
const logs: Record<string, unknown>[][] = [];

beforeEach(async () => {
  redis = await startTestRedis();
  connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  queue = new Queue<RunJobData>(RUNS_QUEUE, { connection, prefix: KEY_PREFIX });
  dir = await mkdtemp(join(tmpdir(), 'oaa-fleet-scheduler-'));
  taker = startTickTaker(redis.url);
});
afterEach(async () => {
  await Promise.all(running.map((s) => s.stop()));
  running.length = 0;
  logs.length = 0;
  await taker.close();
  await queue.close();
  connection.disconnect();
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Writes a config file with these connectors (the tick fixture, scheduled) and loads it. */
async function config(
  schedules: Record<string, string>,
  options: { file?: string; timezone?: string } = {},
): Promise<LoadedConfig> {
  const path = join(dir, options.file ?? 'oaa.config.json');
  const connectors = Object.entries(schedules).map(([id, schedule]) => ({
    id,
    plugin: TICK_PLUGIN,
    provider: 'Tick',
    dataSource: id,
    schedule,
    ...(options.timezone === undefined ? {} : { timezone: options.timezone }),
  }));
  await writeFile(path, JSON.stringify({ connectors }, null, 2));
  return loadConfig({ path });
}

/** Starts a scheduler on the test's Redis; its log lines go to a new entry of `logs`. */
async function scheduler(loaded: LoadedConfig): Promise<FleetScheduler> {
  const lines: Record<string, unknown>[] = [];
  logs.push(lines);
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const started = await startFleetScheduler({ target: parseRedisUrl(redis.url), loaded, logger });
  running.push(started);
  return started;
}

/** The job id BullMQ gives the tick of a connector's schedule at `ms`. */
function tickId(connectorId: string, ms: number): string {
  return `repeat:connector:${connectorId}:${ms}`;
}

/** The schedules in Redis: connector scheduler id, cron pattern and time zone, next tick. */
async function schedules(): Promise<{ key: string; pattern?: string; tz?: string; next?: number }[]> {
  return (await queue.getJobSchedulers()).map(({ key, pattern, tz, next }) => ({
    key,
    ...(pattern === undefined ? {} : { pattern }),
    ...(tz === undefined ? {} : { tz }),
    ...(next === undefined ? {} : { next }),
  }));
}

/** The next tick of a connector's schedule in Redis. */
async function nextTick(connectorId: string): Promise<number> {
  const scheduler = await queue.getJobScheduler(`connector:${connectorId}`);
  if (scheduler?.next === undefined) throw new Error(`no schedule of ${connectorId} in Redis`);
  return scheduler.next;
}

/** The ids of the jobs waiting to run (delayed, waiting or prioritized). */
async function queued(): Promise<string[]> {
  const jobs = await queue.getJobs(['delayed', 'waiting', 'prioritized']);
  return jobs.map((j) => j.id ?? '').sort();
}

/** Brings a tick's time forward: its job waits for a worker now. */
async function tickComes(connectorId: string, ms: number): Promise<void> {
  const job = await queue.getJob(tickId(connectorId, ms));
  if (job === undefined) throw new Error(`no job for the tick ${ms} of ${connectorId}`);
  await job.promote();
}

/** The log lines of one event, from every scheduler. */
function events(event: string): Record<string, unknown>[] {
  return logs.flat().filter((l) => l['event'] === event);
}

describe('schedulers registering the same schedule', () => {
  it('start together while a worker holds a tick it took before adding the next one', async () => {
    const loaded = await config({ yearly: NEW_YEAR });
    await scheduler(loaded);
    const tick = await nextTick('yearly');
    await tickComes('yearly', tick);
    const held = await taker.takeAndHold();
    expect(await queue.getJobState(tickId('yearly', tick))).toBe('active');

    // Two more schedulers register the schedule at the same moment. Their clocks read before the
    // tick, so the tick they compute is the one the worker holds: BullMQ refused that with "job ID
    // already exists" when they upserted it.
    await Promise.all([scheduler(loaded), scheduler(loaded)]);
    expect(await queue.getJobState(tickId('yearly', tick))).toBe('active');
    expect(await queued()).toEqual([]);
    expect(await schedules()).toEqual([{ key: 'connector:yearly', pattern: NEW_YEAR, next: tick }]);

    // The worker goes on and adds the next tick, the only one queued.
    const job = await held.release();
    expect(job.id).toBe(tickId('yearly', tick));
    const next = await nextTick('yearly');
    expect(next).toBeGreaterThan(tick);
    expect(await queued()).toEqual([tickId('yearly', next)]);
    expect(events('schedules.applied').map((l) => l['unchanged'])).toEqual([[], ['yearly'], ['yearly']]);
  });

  it('start together after a worker took a tick: the taken tick is not queued a second time', async () => {
    const loaded = await config({ yearly: NEW_YEAR });
    await scheduler(loaded);
    const tick = await nextTick('yearly');
    await tickComes('yearly', tick);
    await taker.take();
    const next = await nextTick('yearly');
    expect(await queued()).toEqual([tickId('yearly', next)]);

    // Their clocks read before the taken tick; upserting the schedule queued it again (and dropped
    // the next one), so a second worker ran it a second time.
    await Promise.all([scheduler(loaded), scheduler(loaded)]);
    expect(await queue.getJobState(tickId('yearly', tick))).toBe('active');
    expect(await queued()).toEqual([tickId('yearly', next)]);
    expect(await schedules()).toEqual([{ key: 'connector:yearly', pattern: NEW_YEAR, next }]);
  });

  it('start together on an empty Redis: one registers the schedule, the other finds it', async () => {
    const loaded = await config({ yearly: NEW_YEAR, midyear: MID_YEAR });
    await Promise.all([scheduler(loaded), scheduler(loaded)]);
    const yearly = await nextTick('yearly');
    const midyear = await nextTick('midyear');
    expect(await queued()).toEqual([tickId('midyear', midyear), tickId('yearly', yearly)].sort());
    const applied = events('schedules.applied').map((l) => ({
      created: (l['created'] as string[]).sort(),
      unchanged: (l['unchanged'] as string[]).sort(),
    }));
    expect(applied).toHaveLength(2);
    expect(applied).toContainEqual({ created: ['midyear', 'yearly'], unchanged: [] });
    expect(applied).toContainEqual({ created: [], unchanged: ['midyear', 'yearly'] });
  });

  it('restore a schedule whose next tick ended without its worker adding the one after', async () => {
    const loaded = await config({ yearly: NEW_YEAR });
    await scheduler(loaded);
    const tick = await nextTick('yearly');
    await tickComes('yearly', tick);
    // The worker holding the tick finishes it and is gone before adding the next tick.
    const held = await taker.takeAndHold();
    const job = (await queue.getJob(tickId('yearly', tick)))!;
    await job.moveToCompleted('done', held.token, false);
    await taker.close();
    expect(await queued()).toEqual([]);

    await scheduler(loaded);
    const next = await nextTick('yearly');
    expect(next).toBeGreaterThan(tick);
    expect(await queued()).toEqual([tickId('yearly', next)]);
    expect(events('schedules.applied').at(-1)).toMatchObject({ restored: ['yearly'] });
  });
});

describe('schedulers registering different schedules for one connector', () => {
  it('replace the schedule in Redis and warn, naming both schedules', async () => {
    await scheduler(await config({ hr: NEW_YEAR }));
    const other = await config({ hr: MID_YEAR }, { file: 'other.json', timezone: 'Europe/Berlin' });
    await scheduler(other);
    const next = await nextTick('hr');
    expect(await schedules()).toEqual([
      { key: 'connector:hr', pattern: MID_YEAR, tz: 'Europe/Berlin', next },
    ]);
    expect(await queued()).toEqual([tickId('hr', next)]);
    const [replaced, ...more] = events('schedule.replaced');
    expect(more).toEqual([]);
    expect(replaced).toMatchObject({
      level: 40,
      connector: 'hr',
      inRedis: { schedule: NEW_YEAR },
      config: { schedule: MID_YEAR, timezone: 'Europe/Berlin' },
    });
    expect(replaced!['msg']).toContain(`"${NEW_YEAR}"`);
    expect(replaced!['msg']).toContain(`"${MID_YEAR}" (Europe/Berlin)`);
  });

  it('started together, leave one schedule in Redis and the second to register it warns', async () => {
    const first = await config({ hr: NEW_YEAR });
    const second = await config({ hr: MID_YEAR }, { file: 'other.json' });
    await Promise.all([scheduler(first), scheduler(second)]);
    const [inRedis] = await schedules();
    expect(await queued()).toEqual([tickId('hr', inRedis!.next!)]);
    const [replaced, ...more] = events('schedule.replaced');
    expect(more).toEqual([]);
    const lost = inRedis!.pattern === NEW_YEAR ? MID_YEAR : NEW_YEAR;
    expect(replaced).toMatchObject({ inRedis: { schedule: lost }, config: { schedule: inRedis!.pattern } });
  });

  it('change the schedule on reload without a warning, and remove the schedules of connectors left out', async () => {
    const s = await scheduler(await config({ hr: NEW_YEAR, crm: NEW_YEAR }));
    await config({ hr: MID_YEAR });
    expect(await s.reload()).toEqual({ ok: true });
    const next = await nextTick('hr');
    expect(await schedules()).toEqual([{ key: 'connector:hr', pattern: MID_YEAR, next }]);
    expect(await queued()).toEqual([tickId('hr', next)]);
    expect(events('schedules.applied').at(-1)).toMatchObject({ changed: ['hr'], removed: ['crm'] });
    expect(events('schedule.replaced')).toEqual([]);
  });
});

describe('a scheduler whose Redis lost its data', () => {
  it('registers the schedules again when the connection comes back', async () => {
    const s = await scheduler(await config({ yearly: NEW_YEAR }));
    await redis.kill();
    await redis.start();
    await until('the schedules applied again', () => events('schedules.applied')[1], {
      context: () => JSON.stringify(logs),
    });
    expect(events('redis.reconnected')).toHaveLength(1);
    expect(events('schedules.applied')[1]).toMatchObject({ created: ['yearly'] });
    expect(s.scheduled()).toEqual(['yearly']);
    expect(await queued()).toEqual([tickId('yearly', await nextTick('yearly'))]);
  });
});
