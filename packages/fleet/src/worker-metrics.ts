/**
 * A worker's Prometheus metrics, in a registry of its own (prom-client): runs, failures, durations
 * and bytes per connector (`oaa_connector_*`; runs, failures and bytes are the series the daemon
 * serves too, defined once in `@oaakit/runner`'s `ConnectorMetrics`), and the
 * queue's depth and the age of its oldest waiting job, read from Redis at each scrape
 * (`oaa_fleet_*`). Plus prom-client's default process metrics.
 */
import { ConnectorMetrics } from '@oaakit/runner';
import type { ConnectorRunOutcome } from '@oaakit/runner';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Queue } from 'bullmq';
import type { RunJobData } from './run-jobs.js';

/** Job states whose counts `oaa_fleet_queue_jobs` reports. */
export const QUEUE_STATES = ['waiting', 'delayed', 'active', 'failed', 'completed'] as const;

/** The metrics of one worker. */
export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly shared: ConnectorMetrics;
  private readonly duration: Histogram<'connector'>;
  private readonly inProgress: Gauge;

  constructor(queue: Queue<RunJobData>) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.shared = new ConnectorMetrics(this.registry);
    this.duration = new Histogram({
      name: 'oaa_connector_run_duration_seconds',
      help: 'Duration of connector runs',
      labelNames: ['connector'],
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers,
    });
    this.inProgress = new Gauge({
      name: 'oaa_fleet_runs_in_progress',
      help: 'Runs in progress on this worker',
      registers,
    });
    new Gauge({
      name: 'oaa_fleet_queue_jobs',
      help: 'Jobs in the runs queue, by state (the whole fleet, read from Redis)',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
      },
    });
    new Gauge({
      name: 'oaa_fleet_queue_depth',
      help: 'Jobs waiting to run now (waiting; delayed ones are not due yet)',
      registers,
      async collect() {
        this.set(await queue.getWaitingCount());
      },
    });
    new Gauge({
      name: 'oaa_fleet_queue_oldest_waiting_age_seconds',
      help: 'Age of the oldest waiting job, 0 when none waits',
      registers,
      async collect() {
        const [oldest] = await queue.getJobs(['waiting'], 0, 0, true);
        this.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest.timestamp) / 1000));
      },
    });
  }

  started(): void {
    this.inProgress.inc();
  }

  /** Records a finished run; `seconds` its duration, `bytes` what it pushed. */
  finished(connector: string, outcome: ConnectorRunOutcome & { seconds: number }): void {
    this.inProgress.dec();
    this.shared.finished(connector, outcome);
    this.duration.observe({ connector }, outcome.seconds);
  }
}
