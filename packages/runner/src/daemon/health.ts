/** The body of `/healthz`: is the daemon up, what it runs, and how each connector's last run went. */
import type { LoadedConfig } from '../config/load-config.js';
import { runTotal } from './metrics.js';
import type { DaemonMetrics } from './metrics.js';
import type { RunRecord } from './run-record.js';
import type { ConnectorPhase } from './scheduler.js';

/** One connector of the current config. */
export interface ConnectorHealth {
  id: string;
  /** False for an entry without `schedule`: the daemon does not run it. */
  scheduled: boolean;
  schedule: string | null;
  timezone: string | null;
  jitterSeconds: number;
  phase: ConnectorPhase;
  nextRunAt: string | null;
  runs: number;
  failures: number;
  overlapSkipped: number;
  lastSuccessAt: string | null;
  lastRun: RunRecord | null;
}

/** What `/healthz` answers (200 while running, 503 while shutting down). */
export interface HealthReport {
  status: 'ok' | 'stopping';
  startedAt: string;
  uptimeSeconds: number;
  config: { path: string; loadedAt: string; reloads: { success: number; failure: number } };
  runs: { running: number; queued: number };
  connectors: ConnectorHealth[];
}

/** Inputs of {@link healthReport}. */
export interface HealthInputs {
  loaded: LoadedConfig;
  loadedAt: Date;
  metrics: DaemonMetrics;
  stopping: boolean;
  load: { running: number; queued: number };
  status: (id: string) => { phase: ConnectorPhase; nextRunAt: Date | undefined };
  now?: number;
}

function iso(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}

export function healthReport(inputs: HealthInputs): HealthReport {
  const { metrics } = inputs;
  const now = inputs.now ?? Date.now();
  const connectors = inputs.loaded.config.connectors.map((entry): ConnectorHealth => {
    const counters = metrics.connector(entry.id);
    const { phase, nextRunAt } = inputs.status(entry.id);
    return {
      id: entry.id,
      scheduled: entry.schedule !== undefined,
      schedule: entry.schedule ?? null,
      timezone: entry.timezone ?? null,
      jitterSeconds: entry.jitterSeconds ?? 0,
      phase,
      nextRunAt: iso(nextRunAt?.getTime()),
      runs: runTotal(counters),
      failures: counters.runs.failed,
      overlapSkipped: counters.overlapSkipped,
      lastSuccessAt: iso(counters.lastSuccessAt),
      lastRun: counters.lastRun ?? null,
    };
  });
  return {
    status: inputs.stopping ? 'stopping' : 'ok',
    startedAt: new Date(metrics.daemon.startedAt).toISOString(),
    uptimeSeconds: Math.round((now - metrics.daemon.startedAt) / 100) / 10,
    config: {
      path: inputs.loaded.path,
      loadedAt: inputs.loadedAt.toISOString(),
      reloads: { ...metrics.daemon.reloads },
    },
    runs: inputs.load,
    connectors,
  };
}
