/**
 * `oaa worker`: takes run jobs from the queue and runs them with the same pipeline as `oaa run`,
 * with the state in Redis (shared by every worker) and each data source locked in Redis while its
 * run lives. A job that fails is retried by BullMQ with exponential backoff; one that exhausts its
 * attempts stays in the failed set for `oaa jobs`. A worker that dies mid-run stops renewing the
 * job's lock; another worker finds the job stalled and runs it again.
 *
 * Stopping (SIGTERM) takes no new job, lets the jobs in progress finish within the grace period,
 * then aborts them and returns them to the queue, where they wait for another worker without
 * counting as a failed attempt.
 */
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DelayedError, WaitingError, Worker } from 'bullmq';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Client } from '@oaakit/client';
import { isOaaError } from '@oaakit/core';
import { StateStore, reloadDaemonConfig, runConfiguredConnector, startStatusServer } from '@oaakit/runner';
import type {
  LoadedConfig,
  Logger,
  PushSettings,
  RunResult,
  SecretSources,
  StatusServer,
} from '@oaakit/runner';
import { KEY_PREFIX, RUNS_QUEUE, openRedis, openRunsQueue } from './connection.js';
import { connectorMatcher } from './connector-pattern.js';
import { JobScopedBackend, jobCommitted } from './job-scoped-backend.js';
import { RedisStateBackend } from './redis-state-backend.js';
import type { RedisTarget } from './redis-url.js';
import { runJobDataSchema } from './run-jobs.js';
import type { RunJobData } from './run-jobs.js';
import { WorkerMetrics } from './worker-metrics.js';

/** How long a job for a connector this worker does not run waits before another worker gets it. */
const NOT_MINE_DELAY_MS = 1_000;
/** How long aborted jobs get to return to the queue before the worker stops waiting for them. */
const ABORT_WAIT_MS = 10_000;

/** Defaults of a worker's settings. */
export const WORKER_DEFAULTS = {
  concurrency: 1,
  graceSeconds: 30,
  /** Lease of a job's lock and of a data source's lock; renewed every third of it. */
  leaseSeconds: 30,
  port: 9465,
  host: '127.0.0.1',
} as const;

/** Options of {@link startFleetWorker}. */
export interface FleetWorkerOptions {
  target: RedisTarget;
  loaded: LoadedConfig;
  client: Client;
  logger: Logger;
  concurrency?: number;
  /** Globs of the connector ids this worker runs; all by default. */
  connectors?: string;
  graceSeconds?: number;
  leaseSeconds?: number;
  port?: number;
  host?: string;
  secretSources?: SecretSources;
  push?: PushSettings;
}

/** The result a finished job keeps. */
export interface RunJobResult {
  /** `already-done`: the job had run and committed before (it was run again after a crash). */
  status: 'pushed' | 'skipped' | 'dry-run' | 'already-done';
  digest: string;
  durationMs: number;
  worker: string;
  bytes?: { json: number; compressed: number };
}

/** A running worker. */
export interface FleetWorker {
  /** Base URL of `/healthz` and `/metrics`. */
  readonly url: string;
  readonly name: string;
  reload(): Promise<boolean>;
  /** Stops taking jobs, lets running ones finish within the grace period, returns the rest. */
  stop(): Promise<{ graceful: boolean; returned: string[] }>;
}

/** One job being run: what the stages of `RunningWorker.process` share. */
interface JobRun {
  job: Job<RunJobData, RunJobResult>;
  token: string | undefined;
  signal: AbortSignal | undefined;
  connectorId: string;
  jobId: string;
  logger: Logger;
}

class RunningWorker implements FleetWorker {
  readonly url: string;
  readonly name = `${hostname()}:${process.pid}`;
  private stopping = false;
  private stopped: Promise<{ graceful: boolean; returned: string[] }> | undefined;
  private readonly matches: (id: string) => boolean;
  private readonly leaseMs: number;
  private readonly backend: RedisStateBackend;
  private readonly active = new Map<string, string>();
  private readonly worker: Worker<RunJobData, RunJobResult>;

  /** Starts taking jobs at once; `server` already serves its `/healthz` and `/metrics`. */
  constructor(
    private loaded: LoadedConfig,
    private readonly options: FleetWorkerOptions,
    private readonly redis: Redis,
    private readonly queue: Queue<RunJobData>,
    private readonly metrics: WorkerMetrics,
    private readonly server: StatusServer,
  ) {
    this.url = server.url;
    this.matches = connectorMatcher(options.connectors);
    this.leaseMs = (options.leaseSeconds ?? WORKER_DEFAULTS.leaseSeconds) * 1000;
    this.backend = new RedisStateBackend(redis, { leaseMs: this.leaseMs });
    this.worker = new Worker<RunJobData, RunJobResult>(
      RUNS_QUEUE,
      (job, token, signal) => this.process(job, token, signal),
      {
        // BullMQ's blocking connection is its own duplicate of this one.
        connection: redis,
        prefix: KEY_PREFIX,
        name: this.name,
        concurrency: options.concurrency ?? WORKER_DEFAULTS.concurrency,
        lockDuration: this.leaseMs,
        stalledInterval: this.leaseMs,
        maxStalledCount: 2,
      },
    );
    const { logger } = options;
    this.worker.on('error', (error) =>
      logger.warn({ event: 'redis.error', error: error.message }, 'worker: Redis connection problem'),
    );
    this.worker.on('failed', (job, error) => {
      if (job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1))
        logger.error(
          { event: 'job.kept-failed', jobId: job.id, connector: job.data.connectorId, error: error.message },
          'job failed on its last attempt; kept for `oaa jobs`',
        );
    });
  }

  /** One job, stage by stage: routed, jittered, recognized as done, or run. */
  private async process(
    job: Job<RunJobData, RunJobResult>,
    token: string | undefined,
    signal?: AbortSignal,
  ): Promise<RunJobResult> {
    const data = runJobDataSchema.parse(job.data);
    const { connectorId } = data;
    await this.deferIfNotMine(job, token, connectorId);
    await this.deferForJitter(job, token, data);
    const jobId = job.id ?? '';
    const logger = this.options.logger.child({
      jobId,
      connector: connectorId,
      attempt: job.attemptsMade + 1,
    });
    const run: JobRun = { job, token, signal, connectorId, jobId, logger };
    if (await jobCommitted(this.backend, connectorId, jobId)) return this.alreadyDone(run);
    return this.run(run);
  }

  /** A job for a connector this worker does not run waits a moment, for another worker. */
  private async deferIfNotMine(
    job: Job<RunJobData, RunJobResult>,
    token: string | undefined,
    connectorId: string,
  ): Promise<void> {
    if (this.matches(connectorId)) return;
    await job.moveToDelayed(Date.now() + NOT_MINE_DELAY_MS, token);
    throw new DelayedError();
  }

  /** A job with jitter is delayed, the first time it is taken, by a random part of it. */
  private async deferForJitter(
    job: Job<RunJobData, RunJobResult>,
    token: string | undefined,
    data: RunJobData,
  ): Promise<void> {
    if (!data.jitterSeconds || data.jittered) return;
    const delayMs = Math.floor(Math.random() * data.jitterSeconds * 1000);
    await job.updateData({ ...data, jittered: true });
    this.options.logger.info(
      { event: 'run.jittered', jobId: job.id, connector: data.connectorId, delayMs },
      `jitter: running in ${delayMs} ms`,
    );
    if (delayMs === 0) return;
    await job.moveToDelayed(Date.now() + delayMs, token);
    throw new DelayedError();
  }

  /** A job whose run committed before (run again after a crash) is not run twice. */
  private alreadyDone({ connectorId, logger }: JobRun): RunJobResult {
    logger.warn(
      { event: 'run.already-done' },
      'this job already ran and committed its state; not running it again',
    );
    this.metrics.started();
    this.metrics.finished(connectorId, { status: 'already-done', seconds: 0 });
    return { status: 'already-done', digest: '', durationMs: 0, worker: this.name };
  }

  /** Runs the connector, its state in Redis and scoped to the job, and records how it ended. */
  private async run(run: JobRun): Promise<RunJobResult> {
    const { connectorId, jobId, logger, signal } = run;
    logger.info({ event: 'run.start', worker: this.name }, 'run started');
    this.metrics.started();
    this.active.set(jobId, connectorId);
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    try {
      const result = await runConfiguredConnector({
        loaded: this.loaded,
        connectorId,
        client: this.options.client,
        logger,
        state: new StateStore(new JobScopedBackend(this.redis, jobId, { leaseMs: this.leaseMs })),
        // A worker that died holds the data source until its lease ends.
        lockWaitMs: 2 * this.leaseMs,
        ...(signal === undefined ? {} : { signal }),
        ...(this.options.secretSources === undefined ? {} : { secretSources: this.options.secretSources }),
        ...(this.options.push === undefined ? {} : { push: this.options.push }),
      });
      return this.succeeded(run, result, seconds());
    } catch (error) {
      throw this.stopping && signal?.aborted
        ? await this.returnToQueue(run, seconds())
        : this.failure(run, error, seconds());
    } finally {
      this.active.delete(jobId);
    }
  }

  /** Records and logs a run that pushed or found nothing changed; what the job keeps. */
  private succeeded({ connectorId, logger }: JobRun, result: RunResult, seconds: number): RunJobResult {
    const bytes = result.status === 'pushed' ? result.bytes : undefined;
    this.metrics.finished(connectorId, { status: result.status, seconds, ...(bytes ? { bytes } : {}) });
    logger.info(
      { event: 'run.end', status: result.status, durationMs: result.durationMs, bytes },
      `run ${result.status}`,
    );
    return {
      status: result.status,
      digest: result.digest,
      durationMs: result.durationMs,
      worker: this.name,
      ...(bytes ? { bytes } : {}),
    };
  }

  /** A run aborted by a shutdown goes back to the queue, where it does not count as an attempt. */
  private async returnToQueue({ job, token, connectorId, logger }: JobRun, seconds: number): Promise<Error> {
    this.metrics.finished(connectorId, { status: 'returned', seconds });
    logger.warn({ event: 'run.returned' }, 'shutdown: run aborted and returned to the queue');
    await job.moveToWait(token);
    return new WaitingError();
  }

  /** Records and logs a failed run; the error BullMQ keeps, to retry the job or hold it as failed. */
  private failure({ job, connectorId, logger }: JobRun, error: unknown, seconds: number): Error {
    const code = isOaaError(error) ? error.code : 'UNEXPECTED';
    const message = error instanceof Error ? error.message : String(error);
    this.metrics.finished(connectorId, { status: 'failed', seconds, code });
    const attempts = job.opts.attempts ?? 1;
    logger.error(
      {
        event: 'run.end',
        status: 'failed',
        error: { code, message },
        willRetry: job.attemptsMade + 1 < attempts,
      },
      'run failed; the state is unchanged',
    );
    // What BullMQ keeps (failedReason): the code and message, which never carry a secret.
    const failure = new Error(`${code}: ${message}`);
    failure.name = code;
    return failure;
  }

  async reload(): Promise<boolean> {
    try {
      this.loaded = await reloadDaemonConfig(this.loaded.path);
      this.options.logger.info({ event: 'config.reload', ok: true }, 'config reloaded');
      return true;
    } catch (error) {
      this.options.logger.error(
        { event: 'config.reload', ok: false, error: { message: (error as Error).message } },
        'config reload failed; keeping the previous config',
      );
      return false;
    }
  }

  health(): { status: number; body: Record<string, unknown> } {
    const redis = this.redis.status;
    const ok = !this.stopping && redis === 'ready';
    return {
      status: ok ? 200 : 503,
      body: {
        status: this.stopping ? 'stopping' : ok ? 'ok' : 'redis-unavailable',
        worker: this.name,
        queue: this.options.target.display,
        redis,
        concurrency: this.options.concurrency ?? WORKER_DEFAULTS.concurrency,
        running: [...this.active].map(([jobId, connector]) => ({ jobId, connector })),
      },
    };
  }

  stop(): Promise<{ graceful: boolean; returned: string[] }> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private async shutdown(): Promise<{ graceful: boolean; returned: string[] }> {
    const { logger } = this.options;
    this.stopping = true;
    const graceMs = (this.options.graceSeconds ?? WORKER_DEFAULTS.graceSeconds) * 1000;
    const running = [...this.active.values()];
    logger.info({ event: 'worker.stopping', running, graceSeconds: graceMs / 1000 }, 'stopping');
    const closing = this.worker.close();
    let timer: NodeJS.Timeout | undefined;
    const graceful = await Promise.race([
      closing.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
    ]);
    clearTimeout(timer);
    let returned: string[] = [];
    if (!graceful) {
      returned = [...this.active.values()];
      logger.warn(
        { event: 'worker.abort', connectors: returned },
        'grace period over: returning the runs in progress',
      );
      this.worker.cancelAllJobs('the worker is shutting down');
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, ABORT_WAIT_MS).unref())]);
    }
    await this.queue.close();
    await this.server.close();
    this.redis.disconnect();
    logger.info({ event: 'worker.stop', graceful, returned }, 'worker stopped');
    return { graceful, returned };
  }
}

/**
 * Connects, serves `/healthz` and `/metrics`, and starts taking jobs.
 *
 * @example
 * const worker = await startFleetWorker({ target, loaded, client, logger, concurrency: 2 });
 * process.once('SIGTERM', () => void worker.stop());
 */
export async function startFleetWorker(options: FleetWorkerOptions): Promise<FleetWorker> {
  connectorMatcher(options.connectors);
  const redis = await openRedis(options.target);
  // Constructed as soon as the server listens, with no await between: before it answers a request.
  let running!: RunningWorker;
  try {
    const queue = openRunsQueue(redis);
    const metrics = new WorkerMetrics(queue);
    const server = await startStatusServer({
      host: options.host ?? WORKER_DEFAULTS.host,
      port: options.port ?? WORKER_DEFAULTS.port,
      routes: {
        '/healthz': () => {
          const { status, body } = running.health();
          return {
            status,
            contentType: 'application/json; charset=utf-8',
            body: `${JSON.stringify(body)}\n`,
          };
        },
        '/metrics': async () => ({
          status: 200,
          contentType: metrics.registry.contentType,
          body: await metrics.registry.metrics(),
        }),
      },
    });
    running = new RunningWorker(options.loaded, options, redis, queue, metrics, server);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  options.logger.info(
    {
      event: 'worker.start',
      worker: running.name,
      url: running.url,
      queue: options.target.display,
      concurrency: options.concurrency ?? WORKER_DEFAULTS.concurrency,
      connectors: options.connectors ?? '*',
    },
    `worker listening on ${running.url} (/healthz, /metrics)`,
  );
  return running;
}
