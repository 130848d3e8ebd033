/**
 * A fleet as an operator runs it (issue 15): a real Redis (`redis-server` on a random port), real
 * `oaa worker` and `oaa daemon --queue` processes of the built binary, and the emulator on port 0 as
 * the target. The emulator's call log is the evidence of what ran. Nothing is timed: every wait
 * polls for a condition with a generous deadline.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, until } from '@oaakit/emulator/testing';
import type { CallRecord, TestEmulator } from '@oaakit/emulator/testing';
import { readFleetState, startTestRedis } from '@oaakit/fleet/testing';
import type { TestRedis } from '@oaakit/fleet/testing';
import { readMetrics } from '@oaakit/runner/testing';
import { killAll, startFleetProcess } from '../test-support/fleet-processes.js';
import type { FleetProcess } from '../test-support/fleet-processes.js';
import { fixture, json, oaa, tempDir } from '../test-support/run-oaa.js';

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

function env(): Record<string, string> {
  return { ...emulator.env, OAA_QUEUE_URL: redis!.url };
}

async function worker(args: string[] = []): Promise<FleetProcess> {
  const p = await startFleetProcess({
    args: ['worker', '--port', '0', '--lease-seconds', '4', '--grace-seconds', '5', ...args],
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
    env: { ...emulator.env },
    startEvent: 'scheduler.start',
  });
  processes.push(p);
  return p;
}

/** `oaa jobs ...args --json`. */
async function jobs<T>(...args: string[]): Promise<T> {
  const result = await oaa(['jobs', ...args, '--json'], { cwd: work.dir, env: env() });
  if (result.code !== 0) throw new Error(`oaa jobs ${args.join(' ')} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  return json<T>(result);
}

/** The successful pushes the emulator answered. */
async function pushes(): Promise<CallRecord[]> {
  return (await emulator.admin.calls.list()).filter((c) => c.method === 'POST' && c.path.endsWith(':push') && c.status === 200);
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
});
afterEach(async () => {
  await killAll(processes);
  await redis?.stop();
  redis = undefined;
  await work.remove();
});

describe('a fleet of workers and schedulers on one Redis (issue 15)', () => {
  it('runs a per-second schedule exactly once per tick across three workers and two schedulers', async () => {
    redis = await startTestRedis();
    await writeConfig([counter('tick', { schedule: EVERY_SECOND })]);
    await Promise.all([worker(), worker(), worker()]);
    await Promise.all([scheduler(), scheduler()]);
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
    const state = await readFleetState(redis.url, 'tick');
    expect(state?.connectorState).toEqual({ runs: pushed.length });
    expect(new Set(completed.map((j) => j.attemptsMade))).toEqual(new Set([1]));
  });
});
