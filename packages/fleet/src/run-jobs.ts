/**
 * The jobs of the runs queue: what a job carries (the connector id, and the schedule's jitter; never
 * a secret, which workers resolve locally from their own config) and the options every run job gets
 * (retries with exponential backoff; failed jobs kept for `oaa jobs`).
 */
import * as z from 'zod';
import type { JobsOptions } from 'bullmq';

/** Name of every run job. */
export const RUN_JOB_NAME = 'run';
/** Scheduler ids are this prefix and the connector id. */
export const SCHEDULER_PREFIX = 'connector:';

/** The data of a run job. */
export const runJobDataSchema = z.strictObject({
  connectorId: z.string().min(1),
  /** Largest random delay before the run, in seconds (the connector's `jitterSeconds`). */
  jitterSeconds: z.number().int().min(0).max(3600).optional(),
  /** Set once the jitter delay has been taken, so a retry does not take it again. */
  jittered: z.boolean().optional(),
});

/** What a run job carries. */
export type RunJobData = z.infer<typeof runJobDataSchema>;

/** How run jobs are retried. */
export interface RetrySettings {
  /** Attempts per job, the first included; default 3. */
  attempts: number;
  /** Delay before the first retry; each further retry waits twice as long. Default 30 s. */
  backoffMs: number;
}

/** Defaults of {@link RetrySettings}. */
export const RETRY_DEFAULTS: RetrySettings = { attempts: 3, backoffMs: 30_000 };

/** Options of every run job: retries, completed jobs kept a day (at most 1000), failed ones kept. */
export function runJobOptions(retry: RetrySettings): JobsOptions {
  return {
    attempts: retry.attempts,
    backoff: { type: 'exponential', delay: retry.backoffMs },
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: false,
  };
}

/** The connector id of a scheduler id, or undefined for a scheduler that is not the fleet's. */
export function connectorOfScheduler(schedulerId: string): string | undefined {
  return schedulerId.startsWith(SCHEDULER_PREFIX) ? schedulerId.slice(SCHEDULER_PREFIX.length) : undefined;
}
