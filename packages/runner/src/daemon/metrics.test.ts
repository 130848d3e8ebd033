import { describe, expect, it } from 'vitest';
import { parseMetrics } from '../testing/metrics.js';
import { DaemonMetrics } from './metrics.js';
import type { QueueGauges } from './metrics.js';
import type { RunRecord } from './run-record.js';

const START = Date.parse('2030-01-01T00:00:00Z');

function record(status: RunRecord['status'], extra: Partial<RunRecord> = {}): RunRecord {
  return {
    status,
    startedAt: '2030-01-01T00:00:00.000Z',
    finishedAt: '2030-01-01T00:00:02.500Z',
    durationMs: 2500,
    overlapSkipped: 0,
    ...extra,
  };
}

/** The `/metrics` body as sample (name with labels) -> value. */
async function samples(metrics: DaemonMetrics): Promise<Map<string, number>> {
  return parseMetrics(await metrics.registry.metrics());
}

describe('the /metrics text', () => {
  it('declares every family once, with HELP and TYPE, and ends with a newline', async () => {
    const metrics = new DaemonMetrics({ startedAt: START });
    metrics.connector('hr');
    const text = await metrics.registry.metrics();
    expect(text.endsWith('\n')).toBe(true);
    const types = text.split('\n').filter((l) => l.startsWith('# TYPE '));
    expect(types).toContain('# TYPE oaa_connector_runs_total counter');
    expect(types).toContain('# TYPE oaa_connector_last_success_timestamp_seconds gauge');
    expect(new Set(types).size).toBe(types.length);
    for (const line of text.split('\n').filter((l) => l !== '' && !l.startsWith('#'))) {
      expect(line).toMatch(/^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? -?[\d.e+-]+$/);
    }
  });

  it('shows a new connector at zero and counts runs, pushes and skipped ticks', async () => {
    const queue: QueueGauges = { running: 0, queued: 0, stopping: false };
    const metrics = new DaemonMetrics({ startedAt: START, queue: () => queue });
    expect((await samples(metrics)).get('oaa_daemon_start_time_seconds')).toBe(1893456000);
    metrics.connector('hr');
    let s = await samples(metrics);
    expect(s.get('oaa_connector_runs_total{connector="hr",status="pushed"}')).toBe(0);
    expect(s.get('oaa_connector_runs_total{connector="hr",status="failed"}')).toBe(0);
    expect(s.get('oaa_connector_last_success_timestamp_seconds{connector="hr"}')).toBe(0);

    metrics.runFinished('hr', record('pushed', { entities: 12, bytes: { json: 900, compressed: 300 } }));
    metrics.runFinished('hr', record('skipped', { entities: 12 }));
    metrics.runFinished(
      'hr',
      record('failed', { error: { code: 'PUSH_FAILED', message: 'x', retryable: true } }),
    );
    metrics.runFinished(
      'hr',
      record('aborted', { error: { code: 'ABORTED', message: 'shutdown', retryable: false } }),
    );
    metrics.overlapSkipped('hr');
    metrics.reloaded(false);
    Object.assign(queue, { running: 1, queued: 2, stopping: true });
    s = await samples(metrics);
    expect(s.get('oaa_connector_runs_total{connector="hr",status="pushed"}')).toBe(1);
    expect(s.get('oaa_connector_runs_total{connector="hr",status="skipped"}')).toBe(1);
    expect(s.get('oaa_connector_runs_total{connector="hr",status="failed"}')).toBe(1);
    expect(s.get('oaa_connector_runs_total{connector="hr",status="aborted"}')).toBe(1);
    expect(s.get('oaa_connector_failures_total{connector="hr",code="PUSH_FAILED"}')).toBe(1);
    // An aborted run is not a failure.
    expect(s.get('oaa_connector_failures_total{connector="hr",code="ABORTED"}')).toBeUndefined();
    expect(s.get('oaa_connector_pushed_entities_total{connector="hr"}')).toBe(12);
    expect(s.get('oaa_connector_pushed_bytes_total{connector="hr",encoding="gzip"}')).toBe(300);
    expect(s.get('oaa_connector_pushed_bytes_total{connector="hr",encoding="json"}')).toBe(900);
    expect(s.get('oaa_connector_overlap_skipped_total{connector="hr"}')).toBe(1);
    expect(s.get('oaa_connector_last_success_timestamp_seconds{connector="hr"}')).toBe(1893456002.5);
    expect(s.get('oaa_connector_last_run_duration_seconds{connector="hr"}')).toBe(2.5);
    expect(s.get('oaa_daemon_config_reloads_total{result="failure"}')).toBe(1);
    expect(s.get('oaa_daemon_runs_queued')).toBe(2);
    expect(s.get('oaa_daemon_shutting_down')).toBe(1);
  });

  it('escapes label values', async () => {
    const metrics = new DaemonMetrics();
    metrics.connector('a"b\\c');
    expect(await metrics.registry.metrics()).toContain('oaa_connector_running{connector="a\\"b\\\\c"} 0');
  });
});
