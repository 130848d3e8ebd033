/**
 * A connector's schedule as a BullMQ job scheduler (`connector:<id>`), registered so that several
 * schedulers may do it at the same moment while workers take its ticks.
 *
 * BullMQ's `upsertJobScheduler` works out the next tick from the caller's clock, then, in Redis,
 * replaces the scheduler's pending job with a job for that tick. A worker that takes a tick adds the
 * next one in a second step. So a scheduler whose clock read just before a tick, registering a
 * schedule that another scheduler registered and a worker has just taken the tick of, either finds
 * the tick's job taken and no next one yet (BullMQ refuses: "job ID already exists"), or finds the
 * next tick pending, which BullMQ drops to queue the taken tick again (run twice).
 *
 * So a schedule is written only when Redis does not already hold it, and every scheduler of the
 * queue does this under one lock:
 * - the same definition, with its next tick pending or running, is left as it is (`unchanged`);
 * - a missing schedule is added (`created`);
 * - another definition is removed and the new one added: `changed` when this scheduler wrote the
 *   one in Redis (its config was reloaded), `replaced` when it did not (another scheduler's config
 *   differs, or the config changed while no scheduler ran), which the caller reports;
 * - the same definition whose next tick ended without a next one being added is removed and added
 *   again (`restored`).
 * A schedule added starts after any of its ticks whose job already exists (taken, run, or left
 * queued), so no tick is queued twice.
 */
import { isDeepStrictEqual } from 'node:util';
import { ErrorCode, getNextMillis } from 'bullmq';
import type { JobSchedulerJson, JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { OaaError } from '@oaakit/core';
import type { ScheduledEntry } from '@oaakit/runner';
import { KEY_PREFIX } from './connection.js';
import { acquireRedisLock } from './redis-lock.js';
import { RUN_JOB_NAME, SCHEDULER_PREFIX, runJobOptions } from './run-jobs.js';
import type { RetrySettings, RunJobData } from './run-jobs.js';

/** The lock the schedulers of the queue hold while they register and remove schedules. */
export const SCHEDULES_LOCK_KEY = `${KEY_PREFIX}:schedules-lock`;

/** How often an add is tried when BullMQ finds its first tick's job exists after all. */
const ADD_ATTEMPTS = 3;

/** The options of a run job a schedule sets; the template BullMQ keeps holds them. */
const TEMPLATE_OPTIONS = ['attempts', 'backoff', 'removeOnComplete', 'removeOnFail'] as const;

/** A connector's schedule: when it ticks and what each of its jobs carries. */
export interface ScheduleDefinition {
  /** The name of its jobs. */
  name: string;
  /** Cron pattern (seconds allowed). */
  pattern: string;
  timezone?: string;
  data: RunJobData;
  opts: Pick<JobsOptions, (typeof TEMPLATE_OPTIONS)[number]>;
}

/** What registering a schedule did. */
export type ScheduleOutcome = 'created' | 'unchanged' | 'changed' | 'replaced' | 'restored';

/** The outcome, and the definition Redis held before when it was rewritten. */
export interface ScheduleRegistration {
  outcome: ScheduleOutcome;
  previous?: ScheduleDefinition;
}

/** The schedule of a scheduled connector of the config, with these retries. */
export function scheduleOf(entry: ScheduledEntry, retry: RetrySettings): ScheduleDefinition {
  return {
    name: RUN_JOB_NAME,
    pattern: entry.schedule,
    ...(entry.timezone === undefined ? {} : { timezone: entry.timezone }),
    data: {
      connectorId: entry.id,
      ...(entry.jitterSeconds ? { jitterSeconds: entry.jitterSeconds } : {}),
    },
    opts: templateOptions(runJobOptions(retry)),
  };
}

function templateOptions(opts: JobsOptions | undefined): ScheduleDefinition['opts'] {
  return Object.fromEntries(
    TEMPLATE_OPTIONS.filter((key) => opts?.[key] !== undefined).map((key) => [key, opts?.[key]]),
  );
}

/** The definition of a schedule as BullMQ keeps it. */
function storedDefinition(stored: JobSchedulerJson<RunJobData>): ScheduleDefinition {
  return {
    name: stored.name,
    pattern: stored.pattern ?? '',
    ...(stored.tz === undefined ? {} : { timezone: stored.tz }),
    data: stored.template?.data ?? ({} as RunJobData),
    opts: templateOptions(stored.template?.opts),
  };
}

/** Whether two definitions make the same jobs at the same ticks. */
export function sameSchedule(a: ScheduleDefinition, b: ScheduleDefinition): boolean {
  return isDeepStrictEqual(a, b);
}

/** A definition in words, for logs: `"0 0 * * * *" (Europe/Berlin), jitter 30 s, 3 attempts 30000 ms apart`. */
export function describeSchedule(definition: ScheduleDefinition): string {
  const { pattern, timezone, data, opts } = definition;
  const backoff = typeof opts.backoff === 'object' ? opts.backoff.delay : opts.backoff;
  return [
    `"${pattern}"${timezone === undefined ? '' : ` (${timezone})`}`,
    ...(data.jitterSeconds ? [`jitter ${data.jitterSeconds} s`] : []),
    `${opts.attempts ?? 1} attempt(s)${backoff === undefined ? '' : ` ${backoff} ms apart`}`,
  ].join(', ');
}

/** The definition as fields of a log line. */
export function scheduleFields(definition: ScheduleDefinition): Record<string, unknown> {
  const { pattern, timezone, data, opts } = definition;
  return {
    schedule: pattern,
    ...(timezone === undefined ? {} : { timezone }),
    ...(data.jitterSeconds ? { jitterSeconds: data.jitterSeconds } : {}),
    ...(opts.attempts === undefined ? {} : { attempts: opts.attempts }),
    ...(typeof opts.backoff === 'object' ? { backoffMs: opts.backoff.delay } : {}),
  };
}

/** The id BullMQ gives the job of a scheduler's tick. */
function tickJobId(schedulerId: string, ms: number): string {
  return `repeat:${schedulerId}:${ms}`;
}

/** Whether the scheduler's next tick is pending or running: then the fleet goes on with it. */
async function nextTickLives(queue: Queue<RunJobData>, schedulerId: string, next?: number): Promise<boolean> {
  if (next === undefined) return false;
  const state = await queue.getJobState(tickJobId(schedulerId, next));
  return state !== 'completed' && state !== 'failed' && state !== 'unknown';
}

/**
 * The time the schedule starts after: its last tick whose job exists, or undefined when the next
 * tick's job does not exist. A tick is only made once, so a tick taken (or left queued) is skipped.
 */
async function startAfter(
  queue: Queue<RunJobData>,
  schedulerId: string,
  definition: ScheduleDefinition,
): Promise<number | undefined> {
  let after: number | undefined;
  const repeat = { pattern: definition.pattern, ...(definition.timezone ? { tz: definition.timezone } : {}) };
  for (;;) {
    const tick = getNextMillis(Math.max(Date.now(), after ?? 0), repeat);
    if (tick === undefined || (await queue.getJobState(tickJobId(schedulerId, tick))) === 'unknown')
      return after;
    after = tick;
  }
}

/** Adds a schedule Redis does not hold, starting after the ticks whose jobs exist. */
async function addSchedule(
  queue: Queue<RunJobData>,
  connectorId: string,
  definition: ScheduleDefinition,
): Promise<void> {
  const schedulerId = `${SCHEDULER_PREFIX}${connectorId}`;
  const { name, pattern, timezone, data, opts } = definition;
  for (let attempt = 1; ; attempt += 1) {
    const after = await startAfter(queue, schedulerId, definition);
    try {
      await queue.upsertJobScheduler(
        schedulerId,
        {
          pattern,
          ...(timezone === undefined ? {} : { tz: timezone }),
          ...(after === undefined ? {} : { startDate: after }),
        },
        { name, data, opts },
      );
      return;
    } catch (error) {
      // A tick's job appeared between the look and the add: look again, after it.
      const collided = (error as { code?: unknown }).code === ErrorCode.SchedulerJobIdCollision;
      if (!collided || attempt === ADD_ATTEMPTS) {
        throw new OaaError(
          `the schedule of connector ${connectorId} could not be registered: ${(error as Error).message}`,
          {
            code: 'UNEXPECTED',
            cause: error,
            details: { connector: connectorId, schedulerId, attempts: attempt },
            hints: collided
              ? [
                  'the job of each tick computed already existed: check that the clocks of the schedulers and workers agree',
                ]
              : [],
          },
        );
      }
    }
  }
}

/**
 * Registers a connector's schedule unless Redis holds it already (see the module's comment). Call it
 * under {@link withSchedulesLock}. `written` is the definition this scheduler registered last for
 * the connector, if any: it tells a reload's change from another scheduler's definition.
 */
export async function registerSchedule(
  queue: Queue<RunJobData>,
  connectorId: string,
  wanted: ScheduleDefinition,
  written?: ScheduleDefinition,
): Promise<ScheduleRegistration> {
  const schedulerId = `${SCHEDULER_PREFIX}${connectorId}`;
  const stored = await queue.getJobScheduler(schedulerId);
  if (stored === undefined) {
    await addSchedule(queue, connectorId, wanted);
    return { outcome: 'created' };
  }
  const previous = storedDefinition(stored);
  const same = sameSchedule(previous, wanted);
  if (same && (await nextTickLives(queue, schedulerId, stored.next))) return { outcome: 'unchanged' };
  // Removing it first makes the add never replace a pending tick with one a worker took.
  await queue.removeJobScheduler(schedulerId);
  await addSchedule(queue, connectorId, wanted);
  const outcome = same
    ? 'restored'
    : written !== undefined && sameSchedule(previous, written)
      ? 'changed'
      : 'replaced';
  return { outcome, previous };
}

/** Runs `fn` holding the schedules' lock, which other schedulers wait for (up to a minute). */
export async function withSchedulesLock<T>(redis: Redis, fn: () => Promise<T>): Promise<T> {
  const lock = await acquireRedisLock(redis, SCHEDULES_LOCK_KEY, {
    subject: 'the schedules of the runs queue',
    owner: 'scheduler',
    leaseMs: 30_000,
    waitMs: 60_000,
    pollMs: 50,
    hints: [
      'another scheduler is registering the schedules; the lock ends when it is done, or with its lease when that scheduler died',
    ],
  });
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}
