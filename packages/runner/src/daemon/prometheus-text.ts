/**
 * `/metrics` in the Prometheus text exposition format (version 0.0.4): a `# HELP` and `# TYPE` line
 * per family, then one sample per line. Every known connector gets every series, at 0 until
 * something happens, so rate() and absence alerts work from the first scrape.
 */
import { DAEMON_RUN_STATUSES } from './run-record.js';
import type { DaemonMetrics } from './metrics.js';

/** The Content-Type of the text format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Labels = Readonly<Record<string, string>>;

interface Family {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  samples: { labels?: Labels; value: number }[];
}

/** A label value with `\`, `"` and line breaks escaped, as the format asks. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function sampleLine(name: string, labels: Labels | undefined, value: number): string {
  const pairs = Object.entries(labels ?? {}).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  const rendered = Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
  return `${name}${pairs.length > 0 ? `{${pairs.join(',')}}` : ''} ${rendered}`;
}

function seconds(ms: number | undefined): number {
  return ms === undefined ? 0 : ms / 1000;
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

function connectorFamilies(metrics: DaemonMetrics): Family[] {
  const entries = [...metrics.connectors()].sort(([a], [b]) => a.localeCompare(b));
  const per = (pick: (c: (typeof entries)[number][1]) => number) =>
    entries.map(([connector, c]) => ({ labels: { connector }, value: pick(c) }));
  return [
    {
      name: 'oaa_connector_runs_total',
      type: 'counter',
      help: 'Finished runs of the connector, by status (pushed, skipped = unchanged, failed, aborted)',
      samples: entries.flatMap(([connector, c]) =>
        DAEMON_RUN_STATUSES.map((status) => ({ labels: { connector, status }, value: c.runs[status] })),
      ),
    },
    {
      name: 'oaa_connector_failures_total',
      type: 'counter',
      help: 'Runs of the connector that failed with an error (aborted runs are not counted)',
      samples: per((c) => c.runs.failed),
    },
    {
      name: 'oaa_connector_overlap_skipped_total',
      type: 'counter',
      help: "Scheduled ticks skipped because the connector's previous run had not finished",
      samples: per((c) => c.overlapSkipped),
    },
    {
      name: 'oaa_connector_last_success_timestamp_seconds',
      type: 'gauge',
      help: 'End of the last pushed or skipped (unchanged) run, Unix seconds; 0 = never',
      samples: per((c) => seconds(c.lastSuccessAt)),
    },
    {
      name: 'oaa_connector_last_run_timestamp_seconds',
      type: 'gauge',
      help: 'End of the last run whatever its outcome, Unix seconds; 0 = never',
      samples: per((c) => (c.lastRun === undefined ? 0 : Date.parse(c.lastRun.finishedAt) / 1000)),
    },
    {
      name: 'oaa_connector_last_run_duration_seconds',
      type: 'gauge',
      help: 'Duration of the last run, seconds',
      samples: per((c) => seconds(c.lastRun?.durationMs)),
    },
    {
      name: 'oaa_connector_entities_pushed_total',
      type: 'counter',
      help: 'Entities (all kinds) in the payloads the connector pushed',
      samples: per((c) => c.entitiesPushed),
    },
    {
      name: 'oaa_connector_bytes_pushed_total',
      type: 'counter',
      help: 'Bytes (gzip) of the payloads the connector pushed',
      samples: per((c) => c.bytesPushed),
    },
    {
      name: 'oaa_connector_running',
      type: 'gauge',
      help: '1 while a run of the connector holds a concurrency slot',
      samples: per((c) => (c.running ? 1 : 0)),
    },
  ];
}

function daemonFamilies(metrics: DaemonMetrics, queue: QueueGauges): Family[] {
  const { daemon } = metrics;
  return [
    {
      name: 'oaa_daemon_start_time_seconds',
      type: 'gauge',
      help: 'Start of the daemon, Unix seconds',
      samples: [{ value: seconds(daemon.startedAt) }],
    },
    {
      name: 'oaa_daemon_config_reloads_total',
      type: 'counter',
      help: 'Config reloads (SIGHUP), by result; a failed reload keeps the previous config',
      samples: [
        { labels: { result: 'success' }, value: daemon.reloads.success },
        { labels: { result: 'failure' }, value: daemon.reloads.failure },
      ],
    },
    {
      name: 'oaa_daemon_runs_in_progress',
      type: 'gauge',
      help: 'Runs holding a concurrency slot',
      samples: [{ value: queue.running }],
    },
    {
      name: 'oaa_daemon_runs_queued',
      type: 'gauge',
      help: 'Runs waiting for a concurrency slot',
      samples: [{ value: queue.queued }],
    },
    {
      name: 'oaa_daemon_shutting_down',
      type: 'gauge',
      help: '1 while the daemon waits for runs in progress before exiting',
      samples: [{ value: queue.stopping ? 1 : 0 }],
    },
  ];
}

/** The whole `/metrics` body. */
export function renderMetrics(metrics: DaemonMetrics, queue: QueueGauges): string {
  const lines: string[] = [];
  for (const family of [...connectorFamilies(metrics), ...daemonFamilies(metrics, queue)]) {
    lines.push(`# HELP ${family.name} ${family.help}`, `# TYPE ${family.name} ${family.type}`);
    for (const s of family.samples) lines.push(sampleLine(family.name, s.labels, s.value));
  }
  return `${lines.join('\n')}\n`;
}
