/**
 * Cron ticks -> runs. node-cron fires the ticks (seconds resolution, a time zone per connector);
 * this class decides what a tick does:
 *
 * - a connector whose previous run is still going (waiting out its jitter, queued, or running)
 *   skips the tick and counts it. The guard is ours, keyed by connector id, rather than node-cron's
 *   `noOverlap`, because a reload replaces the cron tasks while runs of the old ones go on;
 * - otherwise the run waits a random 0..jitterSeconds, then for a slot of the global p-queue.
 *
 * `stop()` ends the ticks and cancels runs that have not started; `drain()` waits for the rest.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import cron from 'node-cron';
import type { Logger as CronLogger, ScheduledTask } from 'node-cron';
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { ScheduledEntry } from './daemon-config.js';
import type { DaemonMetrics } from './metrics.js';
import type { ScheduledRun } from './run-job.js';

/** Where a connector's current run is. */
export type ConnectorPhase = 'idle' | 'waiting' | 'queued' | 'running';

interface Slot {
  phase: ConnectorPhase;
  /** Ticks skipped since the current run was asked for. */
  skipped: number;
  abort: AbortController | undefined;
}

/** Options of {@link Scheduler}. */
export interface SchedulerOptions {
  concurrency: number;
  logger: Logger;
  metrics: DaemonMetrics;
  /** Does one run; must not throw. */
  run: (run: ScheduledRun) => Promise<unknown>;
  /** 0 <= x < 1, for the jitter; default Math.random. */
  random?: () => number;
}

/** node-cron's own messages, into the daemon's log. */
function cronLogger(logger: Logger): CronLogger {
  return {
    info: (message) => logger.debug({ event: 'cron' }, message),
    debug: (message) => logger.debug({ event: 'cron' }, String(message)),
    warn: (message) => logger.warn({ event: 'cron' }, message),
    error: (message, err) => logger.error({ event: 'cron', error: err?.message }, String(message)),
  };
}

export class Scheduler {
  private readonly queue: PQueue;
  private readonly tasks = new Map<string, ScheduledTask>();
  private readonly slots = new Map<string, Slot>();
  private readonly jobs = new Set<Promise<void>>();
  /** Fired by stop(): no more ticks, jitter waits and queued runs are cancelled. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: SchedulerOptions) {
    this.queue = new PQueue({ concurrency: options.concurrency });
  }

  /** Replaces every cron task with one per entry; runs in progress go on. */
  schedule(entries: readonly ScheduledEntry[]): void {
    for (const task of this.tasks.values()) void task.destroy();
    this.tasks.clear();
    if (this.stopping.signal.aborted) return;
    for (const entry of entries) {
      const task = cron.createTask(entry.schedule, (ctx) => this.tick(entry, ctx.date), {
        name: entry.id,
        ...(entry.timezone === undefined ? {} : { timezone: entry.timezone }),
        logger: cronLogger(this.options.logger),
        // A late tick under load is normal for per-second schedules; it is logged at debug below.
        suppressMissedWarning: true,
      });
      task.on('execution:missed', (ctx) =>
        this.options.logger.debug(
          { event: 'tick.missed', connector: entry.id, at: ctx.date.toISOString() },
          'tick missed',
        ),
      );
      void task.start();
      this.tasks.set(entry.id, task);
    }
  }

  set concurrency(value: number) {
    this.queue.concurrency = value;
  }

  /** Where a connector's run is, and when its next tick is due (undefined when not scheduled). */
  status(id: string): { phase: ConnectorPhase; nextRunAt: Date | undefined } {
    return {
      phase: this.slots.get(id)?.phase ?? 'idle',
      nextRunAt: this.tasks.get(id)?.getNextRun() ?? undefined,
    };
  }

  /** Runs holding a slot, and runs waiting for one. */
  load(): { running: number; queued: number } {
    return { running: this.queue.pending, queued: this.queue.size };
  }

  private slot(id: string): Slot {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = { phase: 'idle', skipped: 0, abort: undefined };
      this.slots.set(id, slot);
    }
    return slot;
  }

  private tick(entry: ScheduledEntry, scheduledFor: Date): void {
    if (this.stopping.signal.aborted) return;
    const slot = this.slot(entry.id);
    if (slot.phase !== 'idle') {
      slot.skipped += 1;
      this.options.metrics.overlapSkipped(entry.id);
      this.options.logger.debug(
        { event: 'tick.skipped', connector: entry.id, phase: slot.phase },
        'tick skipped: the previous run has not finished',
      );
      return;
    }
    slot.phase = 'waiting';
    slot.skipped = 0;
    const job = this.job(entry, slot, scheduledFor).finally(() => {
      slot.phase = 'idle';
      slot.abort = undefined;
      this.jobs.delete(job);
    });
    this.jobs.add(job);
  }

  private async job(entry: ScheduledEntry, slot: Slot, scheduledFor: Date): Promise<void> {
    const jitterMs = Math.floor((this.options.random ?? Math.random)() * (entry.jitterSeconds ?? 0) * 1000);
    if (jitterMs > 0) {
      const waited = await sleep(jitterMs, true, { signal: this.stopping.signal }).catch(() => false);
      if (!waited) return;
    }
    slot.phase = 'queued';
    // Queued runs are cancelled by returning at once, not by p-queue's signal option: that option
    // frees the slot while an aborted run is still finishing.
    await this.queue.add(async () => {
      if (this.stopping.signal.aborted) return;
      slot.abort = new AbortController();
      slot.phase = 'running';
      await this.options.run({
        connectorId: entry.id,
        signal: slot.abort.signal,
        scheduledFor,
        overlapSkipped: () => slot.skipped,
      });
    });
  }

  /** No more ticks; runs waiting out their jitter or for a slot are cancelled. */
  stop(): void {
    this.stopping.abort();
    for (const task of this.tasks.values()) void task.destroy();
    this.tasks.clear();
  }

  /** Ids of connectors with a run in progress. */
  active(): string[] {
    return [...this.slots].filter(([, s]) => s.phase === 'running').map(([id]) => id);
  }

  /** Waits until every run has ended, or `ms` have passed; true when they all ended. */
  async drain(ms: number): Promise<boolean> {
    if (this.jobs.size === 0) return true;
    const timer = new AbortController();
    const done = Promise.allSettled([...this.jobs]).then(() => true);
    const timeout = sleep(ms, false, { signal: timer.signal }).catch(() => false);
    const ended = await Promise.race([done, timeout]);
    timer.abort();
    return ended;
  }

  /** Aborts every run in progress through its AbortSignal; returns their connector ids. */
  abortAll(reason: string): string[] {
    const ids = this.active();
    for (const id of ids) this.slots.get(id)?.abort?.abort(new Error(reason));
    return ids;
  }
}
