/**
 * The scheduled daemon: every connector of a config on its cron schedule, `/healthz` and `/metrics`
 * over HTTP, reload on demand (the CLI calls it on SIGHUP), and a shutdown that lets runs in
 * progress finish within a grace period, then aborts them (an aborted run leaves its state as it
 * was, so the next start pushes again).
 */
import type { Client } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import { collectDefaultMetrics } from 'prom-client';
import { resolveDaemonSettings } from '../config/daemon-schema.js';
import type { DaemonSettings } from '../config/daemon-schema.js';
import type { LoadedConfig } from '../config/load-config.js';
import type { SecretSources } from '../credentials/secrets.js';
import type { PushSettings } from '../pipeline/run-types.js';
import { DAEMON_ERROR_CODES } from './daemon-codes.js';
import { checkScheduledConnectors, isScheduled, reloadDaemonConfig } from './daemon-config.js';
import { healthReport } from './health.js';
import type { HealthReport } from './health.js';
import { DaemonMetrics } from './metrics.js';
import { runScheduled } from './run-job.js';
import { Scheduler } from './scheduler.js';
import { startStatusServer } from './status-server.js';
import type { StatusServer } from './status-server.js';

/** How long aborted runs get to wind down before the daemon stops waiting for them. */
const ABORT_WAIT_MS = 10_000;

/** Options of {@link startDaemon}. */
export interface StartDaemonOptions {
  /** The config, already loaded (the CLI needs its `target` before connecting); reloads re-read its path. */
  loaded: LoadedConfig;
  /** The target's client; a reload does not change it. */
  client: Client;
  /** JSON lines, with the runner's redaction (see `createLogger`). */
  logger: Logger;
  /** From the command line; they win over the config's `daemon` section, across reloads too. */
  settings?: Partial<DaemonSettings>;
  secretSources?: SecretSources;
  push?: PushSettings;
}

/** What a reload did. */
export type ReloadOutcome = { ok: true } | { ok: false; error: OaaError };

/** How a shutdown went. */
export interface StopOutcome {
  /** Every run in progress finished within the grace period. */
  graceful: boolean;
  /** Connectors whose runs were aborted when the grace period ran out. */
  aborted: string[];
  /** Aborted runs still not ended after a further wait; the daemon stopped waiting for them. */
  abandoned: boolean;
}

/** A running daemon. */
export interface Daemon {
  /** Base URL of `/healthz` and `/metrics`, with the port actually bound. */
  readonly url: string;
  readonly settings: Readonly<DaemonSettings>;
  /** Reads the config file again; a bad one is logged and the old config kept. */
  reload(): Promise<ReloadOutcome>;
  /** Stops scheduling, waits for runs up to the grace period, aborts the rest, closes the server. */
  stop(): Promise<StopOutcome>;
  health(): HealthReport;
  /** The `/metrics` body. */
  metricsText(): Promise<string>;
}

function asOaaError(error: unknown): OaaError {
  // A reload fails with the runner's own errors (config, plugins), whose codes are registered.
  if (error instanceof OaaError) return error as OaaError;
  return new OaaError(error instanceof Error ? error.message : String(error), {
    code: 'UNEXPECTED',
    cause: error,
  });
}

class RunningDaemon implements Daemon {
  url = '';
  settings: DaemonSettings;
  private loadedAt = new Date();
  private stopping = false;
  private stopped: Promise<StopOutcome> | undefined;
  /** One reload at a time, in the order asked. */
  private readonly reloads = new PQueue({ concurrency: 1 });
  private server: StatusServer | undefined;
  private readonly metrics = new DaemonMetrics({
    queue: () => ({ ...this.scheduler.load(), stopping: this.stopping }),
  });
  private readonly scheduler: Scheduler;

  constructor(
    private loaded: LoadedConfig,
    private readonly options: StartDaemonOptions,
  ) {
    this.settings = resolveDaemonSettings(loaded.config.daemon, options.settings);
    collectDefaultMetrics({ register: this.metrics.registry });
    const { client, logger, secretSources, push } = options;
    const context = {
      config: () => this.loaded,
      client,
      logger,
      metrics: this.metrics,
      ...(secretSources === undefined ? {} : { secretSources }),
      ...(push === undefined ? {} : { push }),
    };
    this.scheduler = new Scheduler({
      concurrency: this.settings.concurrency,
      logger,
      metrics: this.metrics,
      run: (run) => runScheduled(context, run),
    });
  }

  async start(): Promise<void> {
    const { host, port } = this.settings;
    this.server = await startStatusServer({
      host,
      port,
      routes: {
        '/healthz': () => ({
          status: this.stopping ? 503 : 200,
          contentType: 'application/json; charset=utf-8',
          body: `${JSON.stringify(this.health())}\n`,
        }),
        '/metrics': async () => ({
          status: 200,
          contentType: this.metrics.registry.contentType,
          body: await this.metricsText(),
        }),
      },
    });
    this.url = this.server.url;
    try {
      this.apply(this.loaded);
    } catch (error) {
      // A listening server would keep the process alive after a failed start.
      await this.server.close();
      throw error;
    }
    const { concurrency, graceSeconds } = this.settings;
    this.options.logger.info(
      {
        event: 'daemon.start',
        url: this.url,
        config: this.loaded.path,
        connectors: this.loaded.config.connectors.filter(isScheduled).map((c) => c.id),
        concurrency,
        graceSeconds,
      },
      `daemon listening on ${this.url} (/healthz, /metrics)`,
    );
  }

  /** Schedules the entries of a config, and says which ones it leaves out. */
  private apply(loaded: LoadedConfig): void {
    const unscheduled = loaded.config.connectors.filter((c) => !isScheduled(c)).map((c) => c.id);
    if (unscheduled.length > 0) {
      this.options.logger.warn(
        { event: 'config.unscheduled', connectors: unscheduled },
        'connectors without a schedule are not run by the daemon',
      );
    }
    for (const entry of loaded.config.connectors) this.metrics.connector(entry.id);
    this.scheduler.schedule(loaded.config.connectors.filter(isScheduled));
  }

  reload(): Promise<ReloadOutcome> {
    return this.reloads.add(() => this.reloadNow(), { throwOnTimeout: true });
  }

  private async reloadNow(): Promise<ReloadOutcome> {
    const { logger } = this.options;
    if (this.stopping)
      return {
        ok: false,
        error: new OaaError('the daemon is stopping', { code: DAEMON_ERROR_CODES.STOPPING }),
      };
    let next: LoadedConfig;
    try {
      next = await reloadDaemonConfig(this.loaded.path);
    } catch (caught) {
      const error = asOaaError(caught);
      this.metrics.reloaded(false);
      logger.error(
        { event: 'config.reload', ok: false, error: { code: error.code, message: error.message } },
        'config reload failed; keeping the previous config',
      );
      return { ok: false, error };
    }
    this.warnOnRestartOnly(next);
    const settings = resolveDaemonSettings(next.config.daemon, this.options.settings);
    this.settings = {
      ...this.settings,
      concurrency: settings.concurrency,
      graceSeconds: settings.graceSeconds,
    };
    this.scheduler.concurrency = settings.concurrency;
    const before = new Set(this.loaded.config.connectors.map((c) => c.id));
    const after = next.config.connectors.map((c) => c.id);
    this.loaded = next;
    this.loadedAt = new Date();
    this.apply(next);
    this.metrics.reloaded(true);
    logger.info(
      {
        event: 'config.reload',
        ok: true,
        connectors: next.config.connectors.filter(isScheduled).map((c) => c.id),
        added: after.filter((id) => !before.has(id)),
        removed: [...before].filter((id) => !after.includes(id)),
      },
      'config reloaded',
    );
    return { ok: true };
  }

  /** Keys a reload cannot apply to a running process. */
  private warnOnRestartOnly(next: LoadedConfig): void {
    const changed: string[] = [];
    if (JSON.stringify(next.config.target) !== JSON.stringify(this.loaded.config.target))
      changed.push('target');
    const settings = resolveDaemonSettings(next.config.daemon, this.options.settings);
    if (settings.port !== this.settings.port) changed.push('daemon.port');
    if (settings.host !== this.settings.host) changed.push('daemon.host');
    if (changed.length > 0) {
      this.options.logger.warn(
        { event: 'config.reload', keys: changed },
        `${changed.join(', ')} changed; restart the daemon to apply`,
      );
    }
  }

  stop(): Promise<StopOutcome> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private async shutdown(): Promise<StopOutcome> {
    const { logger } = this.options;
    this.stopping = true;
    this.scheduler.stop();
    const running = this.scheduler.active();
    const { graceSeconds } = this.settings;
    logger.info(
      { event: 'daemon.stopping', running, graceSeconds },
      running.length > 0
        ? `stopping: waiting up to ${graceSeconds}s for ${running.length} run(s)`
        : 'stopping',
    );
    const graceful = await this.scheduler.drain(graceSeconds * 1000);
    let aborted: string[] = [];
    let abandoned = false;
    if (!graceful) {
      aborted = this.scheduler.abortAll('the shutdown grace period ran out');
      logger.warn(
        { event: 'daemon.abort', connectors: aborted },
        'grace period over: aborting the runs in progress',
      );
      abandoned = !(await this.scheduler.drain(ABORT_WAIT_MS));
      if (abandoned) {
        logger.error(
          { event: 'daemon.abandon' },
          'aborted runs did not end; exiting without them (their state is unchanged)',
        );
      }
    }
    await this.server?.close();
    logger.info({ event: 'daemon.stop', graceful, aborted }, 'daemon stopped');
    return { graceful, aborted, abandoned };
  }

  health(): HealthReport {
    return healthReport({
      loaded: this.loaded,
      loadedAt: this.loadedAt,
      metrics: this.metrics,
      stopping: this.stopping,
      load: this.scheduler.load(),
      status: (id) => this.scheduler.status(id),
    });
  }

  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}

/**
 * Checks the config (every scheduled connector's plugin and config), starts the status server and
 * schedules the connectors. Throws the first config problem, or `DAEMON_LISTEN_FAILED`.
 *
 * @example
 * const daemon = await startDaemon({ loaded: await loadConfig(), client, logger: createLogger() });
 * process.on('SIGHUP', () => void daemon.reload());
 * process.once('SIGTERM', () => void daemon.stop());
 */
export async function startDaemon(options: StartDaemonOptions): Promise<Daemon> {
  await checkScheduledConnectors(options.loaded);
  const daemon = new RunningDaemon(options.loaded, options);
  await daemon.start();
  return daemon;
}
