/**
 * `oaa daemon --queue`: the connectors' cron schedules as BullMQ job schedulers. BullMQ keeps one
 * next job per scheduler, with an id made of the scheduler id and the tick's time, so several
 * scheduler processes registering the same schedules (for availability) still make one job per
 * tick. The scheduler registers on start, on reload (removing the schedules of connectors that left
 * the config), and again whenever its Redis connection comes back, which restores schedules a Redis
 * without persistence lost. Registering takes the schedules' lock and leaves a schedule Redis already
 * holds as it is (see `schedule-registration.ts`), so schedulers starting at the same moment, while
 * workers take the ticks, neither fail nor queue a tick twice.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import PQueue from 'p-queue';
import { OaaError } from '@oaakit/core';
import { checkScheduledConnectors, isScheduled, reloadDaemonConfig } from '@oaakit/runner';
import type { LoadedConfig, Logger } from '@oaakit/runner';
import { openRedis, openRunsQueue } from './connection.js';
import type { RedisTarget } from './redis-url.js';
import { RETRY_DEFAULTS, connectorOfScheduler } from './run-jobs.js';
import type { RetrySettings, RunJobData } from './run-jobs.js';
import {
  describeSchedule,
  registerSchedule,
  scheduleFields,
  scheduleOf,
  withSchedulesLock,
} from './schedule-registration.js';
import type { ScheduleDefinition, ScheduleOutcome } from './schedule-registration.js';

/** Options of {@link startFleetScheduler}. */
export interface FleetSchedulerOptions {
  target: RedisTarget;
  loaded: LoadedConfig;
  logger: Logger;
  retry?: Partial<RetrySettings>;
}

/** A running scheduler. */
export interface FleetScheduler {
  /** Reads the config file again and updates the schedules; a bad config is logged and kept out. */
  reload(): Promise<{ ok: true } | { ok: false; error: OaaError }>;
  /** Connector ids scheduled now. */
  scheduled(): string[];
  stop(): Promise<void>;
}

class RunningScheduler implements FleetScheduler {
  private readonly retry: RetrySettings;
  /** Applies one at a time: a reload and a reconnect never interleave their upserts. */
  private readonly applies = new PQueue({ concurrency: 1 });
  private ids: string[] = [];
  /** The definition this scheduler last registered (or found registered), by connector id. */
  private readonly written = new Map<string, ScheduleDefinition>();
  private stopped = false;

  constructor(
    private loaded: LoadedConfig,
    private readonly queue: Queue<RunJobData>,
    private readonly redis: Redis,
    private readonly options: FleetSchedulerOptions,
  ) {
    this.retry = { ...RETRY_DEFAULTS, ...options.retry };
  }

  apply(): Promise<void> {
    return this.applies.add(async () => {
      if (this.stopped) return;
      const entries = this.loaded.config.connectors.filter(isScheduled);
      const outcomes: Record<ScheduleOutcome, string[]> = {
        created: [],
        unchanged: [],
        changed: [],
        replaced: [],
        restored: [],
      };
      const removed: string[] = [];
      await withSchedulesLock(this.redis, async () => {
        for (const entry of entries) {
          const wanted = scheduleOf(entry, this.retry);
          const { outcome, previous } = await registerSchedule(
            this.queue,
            entry.id,
            wanted,
            this.written.get(entry.id),
          );
          this.written.set(entry.id, wanted);
          outcomes[outcome].push(entry.id);
          if (outcome === 'replaced' && previous !== undefined)
            this.reportReplaced(entry.id, previous, wanted);
        }
        const wanted = new Set(entries.map((e) => e.id));
        for (const scheduler of await this.queue.getJobSchedulers()) {
          const id = scheduler.key;
          const connector = connectorOfScheduler(id);
          if (connector !== undefined && !wanted.has(connector)) {
            await this.queue.removeJobScheduler(id);
            removed.push(connector);
          }
        }
      });
      this.ids = entries.map((e) => e.id);
      for (const id of [...this.written.keys()]) if (!this.ids.includes(id)) this.written.delete(id);
      this.options.logger.info(
        { event: 'schedules.applied', connectors: this.ids, ...outcomes, removed },
        `${this.ids.length} schedule(s) in Redis`,
      );
    });
  }

  /** A schedule in Redis that this scheduler did not write differs from its config: it says so. */
  private reportReplaced(
    connectorId: string,
    previous: ScheduleDefinition,
    wanted: ScheduleDefinition,
  ): void {
    this.options.logger.warn(
      {
        event: 'schedule.replaced',
        connector: connectorId,
        inRedis: scheduleFields(previous),
        config: scheduleFields(wanted),
      },
      `connector ${connectorId}: the schedule in Redis, ${describeSchedule(previous)}, differs from this ` +
        `scheduler's config, ${describeSchedule(wanted)}; replaced it. Every scheduler of a queue must ` +
        "read the same config, or each one that starts, reloads or reconnects replaces the others' schedules",
    );
  }

  async reload(): Promise<{ ok: true } | { ok: false; error: OaaError }> {
    try {
      this.loaded = await reloadDaemonConfig(this.loaded.path);
    } catch (caught) {
      const error =
        caught instanceof OaaError
          ? (caught as OaaError)
          : new OaaError(String(caught), { code: 'UNEXPECTED', cause: caught });
      this.options.logger.error(
        { event: 'config.reload', ok: false, error: { code: error.code, message: error.message } },
        'config reload failed; keeping the previous schedules',
      );
      return { ok: false, error };
    }
    await this.apply();
    this.options.logger.info({ event: 'config.reload', ok: true }, 'config reloaded');
    return { ok: true };
  }

  scheduled(): string[] {
    return [...this.ids];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.applies.onIdle();
    await this.queue.close();
    this.redis.disconnect();
    this.options.logger.info({ event: 'scheduler.stop' }, 'scheduler stopped');
  }
}

/**
 * Checks the config, connects and upserts every scheduled connector's job scheduler. The schedules
 * stay in Redis after `stop` (workers keep running them); remove a connector from the config and
 * reload to remove its schedule.
 *
 * @example
 * const scheduler = await startFleetScheduler({ target, loaded, logger });
 * process.on('SIGHUP', () => void scheduler.reload());
 */
export async function startFleetScheduler(options: FleetSchedulerOptions): Promise<FleetScheduler> {
  await checkScheduledConnectors(options.loaded);
  const redis = await openRedis(options.target);
  const queue = openRunsQueue(redis);
  queue.on('error', (error) =>
    options.logger.warn({ event: 'redis.error', error: error.message }, 'Redis connection problem'),
  );
  const scheduler = new RunningScheduler(options.loaded, queue, redis, options);
  try {
    await scheduler.apply();
  } catch (error) {
    await queue.close();
    redis.disconnect();
    throw error;
  }
  let lost = false;
  redis.on('close', () => {
    lost = true;
  });
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    options.logger.info({ event: 'redis.reconnected' }, 'Redis is back; applying the schedules again');
    scheduler
      .apply()
      .catch((error: unknown) =>
        options.logger.error(
          { event: 'schedules.apply', error: (error as Error).message },
          'applying failed',
        ),
      );
  });
  options.logger.info(
    { event: 'scheduler.start', queue: options.target.display, connectors: scheduler.scheduled() },
    'scheduler started',
  );
  return scheduler;
}
