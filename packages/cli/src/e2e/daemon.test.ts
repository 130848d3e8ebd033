/**
 * `oaa daemon` as an operator runs it: the real process, a per-second schedule, an emulator started
 * here, signals sent to the process. Nothing is timed: every wait polls with a generous deadline.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '@oaakit/client';
import type { Client } from '@oaakit/client';
import { startTestEmulator, until as untilFor } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import type { HealthReport } from '@oaakit/runner';
import { readMetrics, stateFiles as stateFilesIn } from '@oaakit/runner/testing';
import { startFleetProcess, type FleetProcess } from '../private-test-helpers/fleet-processes.js';
import { fixture, tempDir } from '../private-test-helpers/run-oaa.js';

const EVERY_SECOND = '*/1 * * * * *';
let emulator: TestEmulator;
let client: Client;
let work: { dir: string; remove: () => Promise<void> };
const started: Daemon[] = [];

/** A running `oaa daemon` and what it has logged so far (`url`: its health and metrics server). */
type Daemon = FleetProcess;

/** A connector entry of the ticker fixture; every test uses its own data source. */
function ticker(id: string, config: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    plugin: fixture('daemon/ticker'),
    provider: 'Ticker',
    dataSource: `ticker ${id}`,
    schedule: EVERY_SECOND,
    config,
  };
}

async function writeConfig(connectors: Record<string, unknown>[]): Promise<string> {
  const path = join(work.dir, 'oaa.config.json');
  await writeFile(path, JSON.stringify({ connectors }, null, 2));
  return path;
}

/** Polls `check` until it returns a value, showing the daemon's stderr when it never does. */
function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  daemon?: Daemon,
): Promise<T> {
  return untilFor(what, check, { intervalMs: 100, context: () => daemon?.stderr() ?? '' });
}

async function startDaemon(args: string[] = []): Promise<Daemon> {
  const daemon = await startFleetProcess({
    args: ['daemon', '--config', join(work.dir, 'oaa.config.json'), '--port', '0', ...args],
    cwd: work.dir,
    env: emulator.env,
    startEvent: 'daemon.start',
  });
  started.push(daemon);
  return daemon;
}

function metrics(daemon: Daemon): Promise<Map<string, number>> {
  return readMetrics(daemon.url);
}

const runs = (id: string, status: string): string =>
  `oaa_connector_runs_total{connector="${id}",status="${status}"}`;

/** Waits until the daemon's metrics satisfy `test`. */
function untilMetrics(
  daemon: Daemon,
  what: string,
  test: (m: Map<string, number>) => boolean,
): Promise<Map<string, number>> {
  return until(
    what,
    async () => {
      const m = await metrics(daemon);
      return test(m) ? m : undefined;
    },
    daemon,
  );
}

/** File name -> SHA-256 of a connector's state directory (the lock file left out). */
function stateFiles(id: string): Promise<Record<string, string>> {
  return stateFilesIn(join(work.dir, '.oaa/state', id));
}

async function journal(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { event: string }).event);
}

async function userNames(dataSource: string): Promise<string[]> {
  const provider = await client.providers.findByName('Ticker');
  const ds = provider && (await client.dataSources.findByName({ providerId: provider.id, name: dataSource }));
  if (ds === undefined) return [];
  const nodes = await emulator.admin.graph.nodes({ dataSourceId: ds.id, type: 'OAA.Ticker.User' });
  return nodes.map((n) => n.name ?? '').sort();
}

beforeAll(async () => {
  emulator = await startTestEmulator({ role: 'admin' });
  client = createClient({ url: emulator.url, apiKey: emulator.apiKey });
});

afterAll(async () => {
  await emulator.close();
});

beforeEach(async () => {
  work = await tempDir('oaa-cli-daemon-');
});

afterEach(async () => {
  for (const daemon of started.splice(0)) {
    daemon.signal('SIGKILL');
    await daemon.exited;
  }
  await work.remove();
});

// Each test waits for several runs of a per-second schedule; on a loaded machine that takes a while.
describe('oaa daemon', { timeout: 120_000 }, () => {
  it('pushes on a per-second schedule, skips unchanged runs, and serves health and metrics', async () => {
    await writeConfig([{ ...ticker('team'), timezone: 'Europe/Berlin' }]);
    const daemon = await startDaemon();
    expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const m = await untilMetrics(
      daemon,
      'two runs',
      (x) => (x.get(runs('team', 'pushed')) ?? 0) + (x.get(runs('team', 'skipped')) ?? 0) >= 2,
    );
    expect(m.get(runs('team', 'pushed'))).toBe(1);
    expect(m.get(runs('team', 'skipped'))).toBeGreaterThanOrEqual(1);
    expect(m.get(runs('team', 'failed'))).toBe(0);
    expect(m.get('oaa_connector_pushed_entities_total{connector="team"}')).toBeGreaterThanOrEqual(3);
    expect(m.get('oaa_connector_pushed_bytes_total{connector="team",encoding="gzip"}')).toBeGreaterThan(0);
    expect(m.get('oaa_connector_last_success_timestamp_seconds{connector="team"}')).toBeGreaterThan(0);
    expect(await userNames('ticker team')).toEqual(['ada', 'bob', 'cy']);

    const health = await fetch(`${daemon.url}/healthz`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as HealthReport;
    expect(body.status).toBe('ok');
    expect(body.connectors).toEqual([
      expect.objectContaining({ id: 'team', schedule: EVERY_SECOND, timezone: 'Europe/Berlin', failures: 0 }),
    ]);

    const ends = daemon.log.filter((l) => l['event'] === 'run.end');
    expect(ends[0]).toMatchObject({
      connector: 'team',
      status: 'pushed',
      entities: expect.any(Number),
      bytes: { compressed: expect.any(Number) },
      durationMs: expect.any(Number),
    });
    expect(ends[1]).toMatchObject({ connector: 'team', status: 'skipped' });

    daemon.signal('SIGTERM');
    expect(await daemon.exited).toBe(0);
    expect(daemon.stderr()).not.toContain(emulator.apiKey);
  });

  it('never overlaps runs of a slow connector: ticks during a run are skipped and counted', async () => {
    const path = join(work.dir, 'slow.journal');
    await writeConfig([ticker('slow', { sleepMs: 2500, journal: path })]);
    const daemon = await startDaemon();
    const m = await untilMetrics(
      daemon,
      'two runs and skipped ticks',
      (x) =>
        (x.get(runs('slow', 'pushed')) ?? 0) + (x.get(runs('slow', 'skipped')) ?? 0) >= 2 &&
        (x.get('oaa_connector_overlap_skipped_total{connector="slow"}') ?? 0) >= 2,
    );
    expect(m.get(runs('slow', 'failed'))).toBe(0);
    const events = await journal(path);
    // Each extraction ends before the next one starts.
    const pairs = events.slice(0, events.length - (events.length % 2));
    expect(pairs).toEqual(pairs.map((_, i) => (i % 2 === 0 ? 'start' : 'end')));
    // A run in progress at SIGTERM is let finish within the grace period.
    daemon.signal('SIGTERM');
    expect(await daemon.exited).toBe(0);
    const after = await journal(path);
    expect(after.at(-1)).toBe('end');
  });

  it('reloads its config on SIGHUP, keeping the old one when the new one is bad', async () => {
    await writeConfig([ticker('team')]);
    const daemon = await startDaemon();
    await untilMetrics(daemon, 'a first push', (x) => x.get(runs('team', 'pushed')) === 1);

    await writeConfig([{ ...ticker('team'), schedule: 'every second' }]);
    daemon.signal('SIGHUP');
    const failed = await until(
      'the failed reload',
      () => daemon.log.find((l) => l['event'] === 'config.reload'),
      daemon,
    );
    expect(failed).toMatchObject({ ok: false, error: { code: 'CONFIG_INVALID' } });
    expect(String((failed['error'] as { message: string }).message)).toContain(
      'connectors[0].schedule: must be a cron expression',
    );
    const before = (await metrics(daemon)).get(runs('team', 'skipped')) ?? 0;
    await untilMetrics(
      daemon,
      'more runs of the old config',
      (x) => (x.get(runs('team', 'skipped')) ?? 0) > before,
    );

    await writeConfig([ticker('team'), ticker('extra', { users: ['dee'] })]);
    daemon.signal('SIGHUP');
    const m = await untilMetrics(
      daemon,
      'a push of the added connector',
      (x) => x.get(runs('extra', 'pushed')) === 1,
    );
    expect(m.get('oaa_daemon_config_reloads_total{result="failure"}')).toBe(1);
    expect(m.get('oaa_daemon_config_reloads_total{result="success"}')).toBe(1);
    expect(await userNames('ticker extra')).toEqual(['dee']);
    daemon.signal('SIGTERM');
    expect(await daemon.exited).toBe(0);
  });

  it('on SIGTERM waits for a run in progress, answering 503 on /healthz, and exits 0 once it ends', async () => {
    const hold = join(work.dir, 'hold');
    const path = join(work.dir, 'held.journal');
    await writeConfig([ticker('held', { holdFile: hold, journal: path })]);
    const daemon = await startDaemon();
    await untilMetrics(daemon, 'a first push', (x) => x.get(runs('held', 'pushed')) === 1);
    await writeFile(hold, '');
    await until(
      'a held run',
      async () => ((await journal(path)).at(-1) === 'held' ? true : undefined),
      daemon,
    );

    daemon.signal('SIGTERM');
    await until(
      '/healthz to answer 503',
      async () => ((await fetch(`${daemon.url}/healthz`)).status === 503 ? true : undefined),
      daemon,
    );
    await rm(hold);
    expect(await daemon.exited).toBe(0);
    expect(daemon.log.find((l) => l['event'] === 'daemon.stop')).toMatchObject({
      graceful: true,
      aborted: [],
    });
  });

  it('on SIGTERM aborts a run that outlasts the grace period, leaves its state untouched and exits non-zero', async () => {
    const hold = join(work.dir, 'hold');
    const path = join(work.dir, 'held.journal');
    await writeConfig([ticker('held', { holdFile: hold, journal: path, users: ['ada'] })]);
    const daemon = await startDaemon(['--grace-seconds', '1']);
    await untilMetrics(daemon, 'a first push', (x) => x.get(runs('held', 'pushed')) === 1);
    await writeConfig([ticker('held', { holdFile: hold, journal: path, users: ['ada', 'zed'] })]);
    await writeFile(hold, '');
    daemon.signal('SIGHUP');
    await until(
      'a held run of the new config',
      () => daemon.log.find((l) => l['event'] === 'config.reload'),
      daemon,
    );
    await until(
      'a held run',
      async () => ((await journal(path)).at(-1) === 'held' ? true : undefined),
      daemon,
    );
    // Runs never overlap, so nothing but the held run can change the state from here on.
    const before = await stateFiles('held');

    daemon.signal('SIGTERM');
    expect(await daemon.exited).toBe(130);
    expect(await stateFiles('held')).toEqual(before);
    expect(daemon.log.find((l) => l['event'] === 'run.end' && l['status'] === 'aborted')).toMatchObject({
      connector: 'held',
      error: { code: 'ABORTED' },
    });
    expect(daemon.stderr()).toContain('the shutdown grace period ran out; aborted the runs of held');
    expect(await userNames('ticker held')).toEqual(['ada']);
  });
});
