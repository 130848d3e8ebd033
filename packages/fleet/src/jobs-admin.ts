/**
 * What `oaa jobs` does with the runs queue: list and show jobs (failed ones by default: those that
 * exhausted their retries and are kept), retry or remove one, run connectors now, and a summary.
 */
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { OaaError } from '@oaakit/core';
import { findConnectorEntry } from '@oaakit/runner';
import type { LoadedConfig } from '@oaakit/runner';
import { openRedis, openRunsQueue } from './connection.js';
import { FLEET_ERROR_CODES } from './fleet-codes.js';
import type { RedisTarget } from './redis-url.js';
import { RETRY_DEFAULTS, RUN_JOB_NAME, connectorOfScheduler, runJobOptions } from './run-jobs.js';
import type { RetrySettings, RunJobData } from './run-jobs.js';
import { QUEUE_STATES } from './worker-metrics.js';

/** Job states `oaa jobs list --state` takes. */
export const JOB_STATES = ['failed', 'waiting', 'delayed', 'active', 'completed'] as const;
/** One of {@link JOB_STATES}. */
export type JobState = (typeof JOB_STATES)[number];

/** A job as `oaa jobs list` shows it. */
export interface JobSummary {
  id: string;
  connectorId: string;
  state: string;
  attemptsMade: number;
  attempts: number;
  createdAt: string;
  finishedAt?: string;
  failedReason?: string;
}

/** A job as `oaa jobs show` shows it. */
export interface JobDetails extends JobSummary {
  processedAt?: string;
  /** Stack traces of the failed attempts, newest last. */
  stacktrace: string[];
  result?: unknown;
  /** The scheduler that made it, if any. */
  schedulerId?: string;
}

/** `oaa jobs stats`. */
export interface QueueStats {
  queue: string;
  counts: Record<(typeof QUEUE_STATES)[number], number>;
  /** Seconds the oldest waiting job has waited; 0 when none waits. */
  oldestWaitingSeconds: number;
  schedules: string[];
  workers: number;
}

const iso = (ms: number | undefined): string | undefined => (ms ? new Date(ms).toISOString() : undefined);

function summary(job: Job<RunJobData>, state: string): JobSummary {
  return {
    id: job.id ?? '',
    connectorId: job.data.connectorId,
    state,
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    createdAt: new Date(job.timestamp).toISOString(),
    ...(job.finishedOn ? { finishedAt: iso(job.finishedOn)! } : {}),
    ...(job.failedReason ? { failedReason: job.failedReason } : {}),
  };
}

/** The runs queue, for the `oaa jobs` commands; `close()` it after. */
export class RunsQueue {
  private constructor(
    readonly target: RedisTarget,
    private readonly redis: Redis,
    readonly queue: Queue<RunJobData>,
  ) {}

  /** Connects; throws `REDIS_UNAVAILABLE` when Redis does not answer. */
  static async open(target: RedisTarget): Promise<RunsQueue> {
    const redis = await openRedis(target);
    return new RunsQueue(target, redis, openRunsQueue(redis));
  }

  private async job(id: string): Promise<Job<RunJobData>> {
    const job = await this.queue.getJob(id);
    if (job === undefined || job === null) {
      throw new OaaError(`no job ${JSON.stringify(id)} in ${this.target.display}`, {
        code: FLEET_ERROR_CODES.JOB_NOT_FOUND,
        details: { jobId: id },
        hints: ['`oaa jobs list` shows the failed jobs; `--state completed` the finished ones'],
      });
    }
    return job;
  }

  /** Jobs in one state, newest first. */
  async list(state: JobState = 'failed', limit = 100): Promise<JobSummary[]> {
    const jobs = await this.queue.getJobs([state], 0, limit - 1, false);
    return jobs.filter((j): j is Job<RunJobData> => Boolean(j)).map((j) => summary(j, state));
  }

  /** One job with its stack traces and result. */
  async show(id: string): Promise<JobDetails> {
    const job = await this.job(id);
    const state = await job.getState();
    return {
      ...summary(job, state),
      ...(job.processedOn ? { processedAt: iso(job.processedOn)! } : {}),
      stacktrace: job.stacktrace ?? [],
      ...(job.returnvalue === undefined || job.returnvalue === null
        ? {}
        : { result: job.returnvalue as unknown }),
      ...(job.repeatJobKey ? { schedulerId: job.repeatJobKey } : {}),
    };
  }

  /** Runs a failed job again (all its attempts anew). Throws `JOB_STATE` for a job that has not failed. */
  async retry(id: string): Promise<JobSummary> {
    const job = await this.job(id);
    const state = await job.getState();
    if (state !== 'failed') {
      throw new OaaError(`job ${id} is ${state}, not failed; only failed jobs are retried`, {
        code: FLEET_ERROR_CODES.JOB_STATE,
        details: { jobId: id, state },
      });
    }
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return summary(await this.job(id), await job.getState());
  }

  /** Removes a job that is not running. Throws `JOB_STATE` for an active one. */
  async remove(id: string): Promise<{ id: string; removed: true }> {
    const job = await this.job(id);
    const state = await job.getState();
    if (state === 'active') {
      throw new OaaError(`job ${id} is running; remove it once it ends`, {
        code: FLEET_ERROR_CODES.JOB_STATE,
        details: { jobId: id, state },
      });
    }
    await job.remove();
    return { id, removed: true };
  }

  /** Queues a run of each connector now (ids checked against the config). */
  async enqueue(
    loaded: LoadedConfig,
    connectorIds: readonly string[],
    retry: Partial<RetrySettings> = {},
  ): Promise<JobSummary[]> {
    const entries = connectorIds.map((id) => findConnectorEntry(loaded, id).entry);
    const opts = runJobOptions({ ...RETRY_DEFAULTS, ...retry });
    const jobs = await this.queue.addBulk(
      entries.map((entry) => ({ name: RUN_JOB_NAME, data: { connectorId: entry.id }, opts })),
    );
    return jobs.map((j) => summary(j, 'waiting'));
  }

  /** Counts per state, the oldest waiting job's age, the schedules and the connected workers. */
  async stats(): Promise<QueueStats> {
    const counts = await this.queue.getJobCounts(...QUEUE_STATES);
    const [oldest] = await this.queue.getJobs(['waiting'], 0, 0, true);
    const schedulers = await this.queue.getJobSchedulers();
    const workers = await this.queue.getWorkers();
    return {
      queue: this.target.display,
      counts: Object.fromEntries(QUEUE_STATES.map((s) => [s, counts[s] ?? 0])) as QueueStats['counts'],
      oldestWaitingSeconds: oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest.timestamp) / 1000),
      schedules: schedulers.map((s) => connectorOfScheduler(s.key) ?? s.key).sort(),
      workers: workers.length,
    };
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}
