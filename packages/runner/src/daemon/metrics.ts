/**
 * The daemon's counters, per connector and for the daemon itself. They live as long as the process:
 * a config reload keeps them, and a connector removed from the config keeps its series.
 */
import { DAEMON_RUN_STATUSES } from './run-record.js';
import type { DaemonRunStatus, RunRecord } from './run-record.js';

/** Counters and gauges of one connector. */
export interface ConnectorCounters {
  runs: Record<DaemonRunStatus, number>;
  /** Scheduled ticks skipped because the previous run had not finished. */
  overlapSkipped: number;
  /** Entities and gzip bytes of successful pushes. */
  entitiesPushed: number;
  bytesPushed: number;
  /** Epoch milliseconds of the end of the last `pushed` or `skipped` run. */
  lastSuccessAt: number | undefined;
  /** The last run, whatever its outcome. */
  lastRun: RunRecord | undefined;
  /** Whether a run holds a concurrency slot now. */
  running: boolean;
}

/** Counters of the daemon as a whole. */
export interface DaemonCounters {
  startedAt: number;
  reloads: { success: number; failure: number };
}

function emptyRuns(): Record<DaemonRunStatus, number> {
  return Object.fromEntries(DAEMON_RUN_STATUSES.map((s) => [s, 0])) as Record<DaemonRunStatus, number>;
}

/** The daemon's metrics, recorded by the scheduler and the run job, read by `/metrics` and `/healthz`. */
export class DaemonMetrics {
  readonly daemon: DaemonCounters;
  private readonly byConnector = new Map<string, ConnectorCounters>();

  constructor(startedAt: number = Date.now()) {
    this.daemon = { startedAt, reloads: { success: 0, failure: 0 } };
  }

  /** The counters of a connector, created at zero the first time it is named. */
  connector(id: string): ConnectorCounters {
    let counters = this.byConnector.get(id);
    if (counters === undefined) {
      counters = {
        runs: emptyRuns(),
        overlapSkipped: 0,
        entitiesPushed: 0,
        bytesPushed: 0,
        lastSuccessAt: undefined,
        lastRun: undefined,
        running: false,
      };
      this.byConnector.set(id, counters);
    }
    return counters;
  }

  /** Every connector seen so far, by id. */
  connectors(): ReadonlyMap<string, ConnectorCounters> {
    return this.byConnector;
  }

  runStarted(id: string): void {
    this.connector(id).running = true;
  }

  runFinished(id: string, record: RunRecord): void {
    const c = this.connector(id);
    c.running = false;
    c.runs[record.status] += 1;
    c.lastRun = record;
    if (record.status === 'pushed' || record.status === 'skipped') {
      c.lastSuccessAt = Date.parse(record.finishedAt);
    }
    if (record.status === 'pushed') {
      c.entitiesPushed += record.entities ?? 0;
      c.bytesPushed += record.bytes?.compressed ?? 0;
    }
  }

  overlapSkipped(id: string): void {
    this.connector(id).overlapSkipped += 1;
  }

  reloaded(ok: boolean): void {
    this.daemon.reloads[ok ? 'success' : 'failure'] += 1;
  }
}

/** Runs of a connector that finished, whatever the outcome. */
export function runTotal(counters: ConnectorCounters): number {
  return DAEMON_RUN_STATUSES.reduce((sum, s) => sum + counters.runs[s], 0);
}
