/**
 * The daemon's metrics, per connector and for the daemon itself: what `/healthz` reports, and the
 * Prometheus series of `/metrics` in a prom-client registry (the fleet's workers use the same
 * library and the same series for the facts both report: `../connector-metrics.ts`). They live as
 * long as the process: a config reload keeps them, and a connector removed from the config keeps
 * its series. Every known connector gets every series at 0 until something happens, so rate() and
 * absence alerts work from the first scrape; only `oaa_connector_failures_total`, labelled by error
 * code, appears with the first failure (`oaa_connector_runs_total{status="failed"}` is at 0 before).
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { ConnectorMetrics } from '../connector-metrics.js';
import { DAEMON_RUN_STATUSES } from './run-record.js';
import type { DaemonRunStatus, RunRecord } from './run-record.js';

/** What `/healthz` reports of one connector. */
export interface ConnectorCounters {
  runs: Record<DaemonRunStatus, number>;
  /** Scheduled ticks skipped because the previous run had not finished. */
  overlapSkipped: number;
  /** Epoch milliseconds of the end of the last `pushed` or `skipped` run. */
  lastSuccessAt: number | undefined;
  /** The last run, whatever its outcome. */
  lastRun: RunRecord | undefined;
}

/** Counters of the daemon as a whole. */
export interface DaemonCounters {
  startedAt: number;
  reloads: { success: number; failure: number };
}

/** The queue gauges the scheduler reports at scrape time. */
export interface QueueGauges {
  /** Runs holding a concurrency slot. */
  running: number;
  /** Runs waiting for a slot. */
  queued: number;
  /** 1 while the daemon shuts down. */
  stopping: boolean;
}

/** Options of {@link DaemonMetrics}. */
export interface DaemonMetricsOptions {
  /** Epoch milliseconds; default now. */
  startedAt?: number;
  /** Read at each scrape; default an idle queue. */
  queue?: () => QueueGauges;
}

function emptyRuns(): Record<DaemonRunStatus, number> {
  return Object.fromEntries(DAEMON_RUN_STATUSES.map((s) => [s, 0])) as Record<DaemonRunStatus, number>;
}

/** The daemon's metrics, recorded by the scheduler and the run job, read by `/metrics` and `/healthz`. */
export class DaemonMetrics {
  /** The `/metrics` registry: its `metrics()` is the body, its `contentType` the header. */
  readonly registry = new Registry();
  readonly daemon: DaemonCounters;
  private readonly byConnector = new Map<string, ConnectorCounters>();
  private readonly shared: ConnectorMetrics;
  private readonly skippedTicks: Counter<'connector'>;
  private readonly lastSuccess: Gauge<'connector'>;
  private readonly lastRunEnd: Gauge<'connector'>;
  private readonly lastRunDuration: Gauge<'connector'>;
  private readonly pushedEntities: Counter<'connector'>;
  private readonly running: Gauge<'connector'>;
  private readonly reloads: Counter<'result'>;

  constructor(options: DaemonMetricsOptions = {}) {
    const startedAt = options.startedAt ?? Date.now();
    const queue = options.queue ?? (() => ({ running: 0, queued: 0, stopping: false }));
    this.daemon = { startedAt, reloads: { success: 0, failure: 0 } };
    const registers = [this.registry];
    const perConnector = { labelNames: ['connector'] as const, registers };
    this.shared = new ConnectorMetrics(this.registry);
    this.skippedTicks = new Counter({
      name: 'oaa_connector_overlap_skipped_total',
      help: "Scheduled ticks skipped because the connector's previous run had not finished",
      ...perConnector,
    });
    this.lastSuccess = new Gauge({
      name: 'oaa_connector_last_success_timestamp_seconds',
      help: 'End of the last pushed or skipped (unchanged) run, Unix seconds; 0 = never',
      ...perConnector,
    });
    this.lastRunEnd = new Gauge({
      name: 'oaa_connector_last_run_timestamp_seconds',
      help: 'End of the last run whatever its outcome, Unix seconds; 0 = never',
      ...perConnector,
    });
    this.lastRunDuration = new Gauge({
      name: 'oaa_connector_last_run_duration_seconds',
      help: 'Duration of the last run, seconds',
      ...perConnector,
    });
    this.pushedEntities = new Counter({
      name: 'oaa_connector_pushed_entities_total',
      help: 'Entities (all kinds) in the payloads the connector pushed',
      ...perConnector,
    });
    this.running = new Gauge({
      name: 'oaa_connector_running',
      help: '1 while a run of the connector holds a concurrency slot',
      ...perConnector,
    });
    new Gauge({
      name: 'oaa_daemon_start_time_seconds',
      help: 'Start of the daemon, Unix seconds',
      registers,
    }).set(startedAt / 1000);
    this.reloads = new Counter({
      name: 'oaa_daemon_config_reloads_total',
      help: 'Config reloads (SIGHUP), by result; a failed reload keeps the previous config',
      labelNames: ['result'],
      registers,
    });
    this.reloads.inc({ result: 'success' }, 0);
    this.reloads.inc({ result: 'failure' }, 0);
    new Gauge({
      name: 'oaa_daemon_runs_in_progress',
      help: 'Runs holding a concurrency slot',
      registers,
      collect() {
        this.set(queue().running);
      },
    });
    new Gauge({
      name: 'oaa_daemon_runs_queued',
      help: 'Runs waiting for a concurrency slot',
      registers,
      collect() {
        this.set(queue().queued);
      },
    });
    new Gauge({
      name: 'oaa_daemon_shutting_down',
      help: '1 while the daemon waits for runs in progress before exiting',
      registers,
      collect() {
        this.set(queue().stopping ? 1 : 0);
      },
    });
  }

  /** What `/healthz` reports of a connector; its series start at zero the first time it is named. */
  connector(id: string): ConnectorCounters {
    let counters = this.byConnector.get(id);
    if (counters === undefined) {
      counters = { runs: emptyRuns(), overlapSkipped: 0, lastSuccessAt: undefined, lastRun: undefined };
      this.byConnector.set(id, counters);
      const connector = { connector: id };
      this.shared.startAtZero(id, DAEMON_RUN_STATUSES);
      for (const counter of [this.skippedTicks, this.pushedEntities]) counter.inc(connector, 0);
      for (const gauge of [this.lastSuccess, this.lastRunEnd, this.lastRunDuration, this.running])
        gauge.set(connector, 0);
    }
    return counters;
  }

  runStarted(id: string): void {
    this.connector(id);
    this.running.set({ connector: id }, 1);
  }

  runFinished(id: string, record: RunRecord): void {
    const c = this.connector(id);
    const connector = { connector: id };
    c.runs[record.status] += 1;
    c.lastRun = record;
    this.running.set(connector, 0);
    this.shared.finished(id, {
      status: record.status,
      // An aborted run carries an error code too, but is not a failure.
      ...(record.status === 'failed' ? { code: record.error?.code ?? 'UNEXPECTED' } : {}),
      ...(record.status === 'pushed' && record.bytes !== undefined ? { bytes: record.bytes } : {}),
    });
    this.lastRunEnd.set(connector, Date.parse(record.finishedAt) / 1000);
    this.lastRunDuration.set(connector, record.durationMs / 1000);
    if (record.status === 'pushed' || record.status === 'skipped') {
      c.lastSuccessAt = Date.parse(record.finishedAt);
      this.lastSuccess.set(connector, c.lastSuccessAt / 1000);
    }
    if (record.status === 'pushed') {
      this.pushedEntities.inc(connector, record.entities ?? 0);
    }
  }

  overlapSkipped(id: string): void {
    this.connector(id).overlapSkipped += 1;
    this.skippedTicks.inc({ connector: id });
  }

  reloaded(ok: boolean): void {
    const result = ok ? 'success' : 'failure';
    this.daemon.reloads[result] += 1;
    this.reloads.inc({ result });
  }
}

/** Runs of a connector that finished, whatever the outcome. */
export function runTotal(counters: ConnectorCounters): number {
  return DAEMON_RUN_STATUSES.reduce((sum, s) => sum + counters.runs[s], 0);
}
