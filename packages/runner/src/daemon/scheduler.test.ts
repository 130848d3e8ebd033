/**
 * The scheduler's own decisions (jitter, the global concurrency limit, cancelling at stop), with a
 * run function that the test releases by hand. The runs themselves are covered in daemon.test.ts.
 */
import { until } from '@oaakit/emulator/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import type { ScheduledEntry } from './daemon-config.js';
import { DaemonMetrics } from './metrics.js';
import type { ScheduledRun } from './run-job.js';
import { Scheduler } from './scheduler.js';

const EVERY_SECOND = '* * * * * *';
let scheduler: Scheduler | undefined;

afterEach(async () => {
  scheduler?.stop();
  scheduler?.abortAll('the test is over');
  await scheduler?.drain(5_000);
  scheduler = undefined;
});

function entry(id: string, extra: Partial<ScheduledEntry> = {}): ScheduledEntry {
  return { id, plugin: './p', provider: 'P', dataSource: id, schedule: EVERY_SECOND, ...extra };
}

/** A run function whose runs stay in progress until released (or aborted). */
function heldRuns(): { run: (r: ScheduledRun) => Promise<void>; started: string[]; releaseAll: () => void } {
  const started: string[] = [];
  const waiting: (() => void)[] = [];
  return {
    started,
    run: (r) => {
      started.push(r.connectorId);
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        r.signal.addEventListener('abort', () => resolve());
      });
    },
    releaseAll: () => waiting.splice(0).forEach((release) => release()),
  };
}

describe('the scheduler', { timeout: 120_000 }, () => {
  it('waits out the jitter before a run, skipping ticks meanwhile, and a stop cancels the wait', async () => {
    const runs = heldRuns();
    const metrics = new DaemonMetrics();
    const s = new Scheduler({
      concurrency: 2,
      logger: silentLogger(),
      metrics,
      run: runs.run,
      random: () => 0.99,
    });
    scheduler = s;
    s.schedule([entry('a', { jitterSeconds: 600 })]);
    await until('a run waiting out its jitter', () => s.status('a').phase === 'waiting');
    await until('a skipped tick', () => metrics.connector('a').overlapSkipped >= 1);
    s.stop();
    expect(await s.drain(5_000)).toBe(true);
    expect(runs.started).toEqual([]);
    expect(s.status('a')).toEqual({ phase: 'idle', nextRunAt: undefined });
  });

  it('runs no more connectors at once than the concurrency allows', async () => {
    const runs = heldRuns();
    const s = new Scheduler({
      concurrency: 1,
      logger: silentLogger(),
      metrics: new DaemonMetrics(),
      run: runs.run,
    });
    scheduler = s;
    s.schedule([entry('a'), entry('b')]);
    await until('one run and one queued', () => s.load().running === 1 && s.load().queued === 1);
    expect(runs.started).toHaveLength(1);
    const first = runs.started[0];
    runs.releaseAll();
    await until('the other connector to run', () => runs.started.some((id) => id !== first));
    expect(s.load().running).toBe(1);
  });

  it('aborts the runs in progress through their signal', async () => {
    const runs = heldRuns();
    const s = new Scheduler({
      concurrency: 2,
      logger: silentLogger(),
      metrics: new DaemonMetrics(),
      run: runs.run,
    });
    scheduler = s;
    s.schedule([entry('a')]);
    await until('a run', () => s.status('a').phase === 'running');
    s.stop();
    expect(await s.drain(200)).toBe(false);
    expect(s.abortAll('test')).toEqual(['a']);
    expect(await s.drain(5_000)).toBe(true);
  });
});
