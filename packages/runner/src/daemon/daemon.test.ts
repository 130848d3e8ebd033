/**
 * The daemon in this process, with a per-second schedule, against a real emulator. The CLI's
 * end-to-end test runs the same through the `oaa daemon` process and its signals.
 */
import { join } from 'node:path';
import { until as untilFor } from '@oaakit/emulator/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { readMetrics } from '../testing/metrics.js';
import { appEntry, startHarness } from '../private-test-helpers/harness.js';
import type { Harness } from '../private-test-helpers/harness.js';
import { startDaemon } from './daemon.js';
import type { Daemon } from './daemon.js';
import type { HealthReport } from './health.js';

const EVERY_SECOND = '* * * * * *';

let h: Harness;
let daemon: Daemon | undefined;
let lines: string[];

beforeEach(async () => {
  h = await startHarness();
  lines = [];
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await h.close();
});

async function start(settings: { graceSeconds?: number } = {}): Promise<Daemon> {
  const loaded = await h.config([appEntry({ userCount: 3 }, { schedule: EVERY_SECOND })]);
  daemon = await startDaemon({
    loaded,
    client: h.client(),
    logger: createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } }),
    settings: { port: 0, ...settings },
  });
  return daemon;
}

/** Polls until `check` returns a value, showing the daemon's log when it never does. */
function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return untilFor(what, check, { context: () => `log:\n${lines.join('')}` });
}

async function metric(d: Daemon, sample: string): Promise<number> {
  return (await readMetrics(d.url)).get(sample) ?? 0;
}

async function health(d: Daemon): Promise<{ status: number; body: HealthReport }> {
  const res = await fetch(`${d.url}/healthz`);
  return { status: res.status, body: (await res.json()) as HealthReport };
}

const runs = (status: string, id = 'app'): string =>
  `oaa_connector_runs_total{connector="${id}",status="${status}"}`;

describe('the daemon', { timeout: 120_000 }, () => {
  it('pushes on schedule, then skips unchanged runs, and reports both over HTTP', async () => {
    const d = await start();
    await until('a pushed and a skipped run', async () =>
      (await metric(d, runs('pushed'))) === 1 && (await metric(d, runs('skipped'))) >= 1 ? true : undefined,
    );
    expect(await h.pushCalls()).toHaveLength(1);
    expect(await metric(d, 'oaa_connector_pushed_entities_total{connector="app"}')).toBeGreaterThan(3);
    expect(
      await metric(d, 'oaa_connector_pushed_bytes_total{connector="app",encoding="gzip"}'),
    ).toBeGreaterThan(0);
    expect(await metric(d, 'oaa_connector_last_success_timestamp_seconds{connector="app"}')).toBeGreaterThan(
      0,
    );
    // prom-client's process metrics, as the fleet's workers serve them.
    expect(await metric(d, 'process_start_time_seconds')).toBeGreaterThan(0);

    const { status, body } = await health(d);
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.connectors[0]).toMatchObject({
      id: 'app',
      scheduled: true,
      schedule: EVERY_SECOND,
      failures: 0,
    });
    expect(body.connectors[0]?.lastRun?.status).toMatch(/^(pushed|skipped)$/);
    expect((await fetch(`${d.url}/nope`)).status).toBe(404);
    expect((await fetch(`${d.url}/metrics`, { method: 'POST' })).status).toBe(405);

    const log = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log[0]).toMatchObject({ event: 'daemon.start', url: d.url, connectors: ['app'] });
    expect(log.find((l) => l['event'] === 'run.end' && l['status'] === 'pushed')).toMatchObject({
      connector: 'app',
      entities: expect.any(Number),
      bytes: { json: expect.any(Number), compressed: expect.any(Number) },
      durationMs: expect.any(Number),
    });
    expect(await d.stop()).toEqual({ graceful: true, aborted: [], abandoned: false });
    expect(lines.join('')).not.toContain(h.apiKey);
  });

  it('skips ticks while a run is held, and aborts it at shutdown leaving the state as it was', async () => {
    const d = await start({ graceSeconds: 2 });
    await until('a first push', async () => ((await metric(d, runs('pushed'))) === 1 ? true : undefined));
    await h.config([
      appEntry(
        { userCount: 3, revision: '2', waitForFile: join(h.dir, 'never') },
        { schedule: EVERY_SECOND },
      ),
    ]);
    expect(await d.reload()).toEqual({ ok: true });
    await until('a held run with skipped ticks', async () => {
      const app = (await health(d)).body.connectors[0];
      return app?.phase === 'running' && app.overlapSkipped >= 2 ? true : undefined;
    });
    // The held run is the only one that can touch the state now.
    const before = await h.stateFiles('app');
    expect(Object.keys(before).length).toBeGreaterThan(0);

    const stopping = d.stop();
    const during = await health(d);
    expect(during.status).toBe(503);
    expect(during.body.status).toBe('stopping');
    expect(await stopping).toEqual({ graceful: false, aborted: ['app'], abandoned: false });
    expect(await h.stateFiles('app')).toEqual(before);
    expect(await h.pushCalls()).toHaveLength(1);
    const aborted = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l['status'] === 'aborted');
    expect(aborted).toMatchObject({ event: 'run.end', connector: 'app', error: { code: 'ABORTED' } });
  });

  it('keeps the old config when a reload finds a bad one, and schedules what a good one adds', async () => {
    const d = await start();
    await h.config([appEntry({ userCount: 3 }, { schedule: EVERY_SECOND, plugin: join(h.dir, 'missing') })]);
    const bad = await d.reload();
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error.code).toBe('PLUGIN_INVALID');
    expect(await metric(d, 'oaa_daemon_config_reloads_total{result="failure"}')).toBe(1);
    await until('runs of the old config', async () =>
      (await metric(d, runs('pushed'))) === 1 ? true : undefined,
    );

    await h.config([
      appEntry({ userCount: 3 }, { schedule: EVERY_SECOND }),
      appEntry({ userCount: 2 }, { id: 'second', dataSource: 'second', schedule: EVERY_SECOND }),
    ]);
    expect(await d.reload()).toEqual({ ok: true });
    await until('a push of the added connector', async () =>
      (await metric(d, runs('pushed', 'second'))) === 1 ? true : undefined,
    );
    expect((await health(d)).body.connectors.map((c) => c.id)).toEqual(['app', 'second']);
    expect(await metric(d, 'oaa_daemon_config_reloads_total{result="success"}')).toBe(1);
  });
});
