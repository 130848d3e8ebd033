/**
 * The per-connector Prometheus series that the daemon (`oaa daemon`) and the fleet's workers both
 * serve, defined here once so that both give them the same name, help text and labels: finished
 * runs by status, failed runs by error code, and the bytes pushed by encoding. Each process
 * registers them into its own prom-client registry and adds the series only it has.
 */
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

/** How a finished run is counted. */
export interface ConnectorRunOutcome {
  /**
   * `pushed`, `skipped` (nothing changed) or `failed`; the daemon adds `aborted` (cancelled at
   * shutdown), a fleet worker `returned` (given back to the queue at shutdown) and `already-done`.
   */
  status: string;
  /** The error code of a failed run; a run with a code counts in `oaa_connector_failures_total`. */
  code?: string;
  /** What the run pushed, as JSON and as gzip. */
  bytes?: { json: number; compressed: number };
}

/** The shared `oaa_connector_*` series, registered into one registry. */
export class ConnectorMetrics {
  /** `oaa_connector_runs_total{connector, status}`. */
  readonly runs: Counter<'connector' | 'status'>;
  /** `oaa_connector_failures_total{connector, code}`. */
  readonly failures: Counter<'connector' | 'code'>;
  /** `oaa_connector_pushed_bytes_total{connector, encoding}`, encoding `json` or `gzip`. */
  readonly pushedBytes: Counter<'connector' | 'encoding'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.runs = new Counter({
      name: 'oaa_connector_runs_total',
      help:
        'Finished runs of the connector, by status: pushed, skipped (nothing changed), failed; ' +
        'aborted at a daemon shutdown; returned to the queue at a worker shutdown, already-done',
      labelNames: ['connector', 'status'],
      registers,
    });
    this.failures = new Counter({
      name: 'oaa_connector_failures_total',
      help: 'Runs of the connector that failed, by error code (runs aborted or returned at shutdown are not counted)',
      labelNames: ['connector', 'code'],
      registers,
    });
    this.pushedBytes = new Counter({
      name: 'oaa_connector_pushed_bytes_total',
      help: 'Bytes of the payloads the connector pushed, as JSON and as gzip',
      labelNames: ['connector', 'encoding'],
      registers,
    });
  }

  /**
   * Creates a connector's run series for these statuses and its bytes series at 0, so that rate()
   * and absence alerts work from the first scrape. Its failures series appear with the first
   * failure, since their `code` is not known before.
   */
  startAtZero(connector: string, statuses: readonly string[]): void {
    for (const status of statuses) this.runs.inc({ connector, status }, 0);
    this.pushedBytes.inc({ connector, encoding: 'json' }, 0);
    this.pushedBytes.inc({ connector, encoding: 'gzip' }, 0);
  }

  /** Counts a finished run of the connector. */
  finished(connector: string, outcome: ConnectorRunOutcome): void {
    this.runs.inc({ connector, status: outcome.status });
    if (outcome.code !== undefined) this.failures.inc({ connector, code: outcome.code });
    if (outcome.bytes !== undefined) {
      this.pushedBytes.inc({ connector, encoding: 'json' }, outcome.bytes.json);
      this.pushedBytes.inc({ connector, encoding: 'gzip' }, outcome.bytes.compressed);
    }
  }
}
