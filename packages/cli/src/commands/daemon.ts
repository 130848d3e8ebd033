import { once } from 'node:events';
import { Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import type { LoadedConfig } from '@oaakit/runner';
import { queueFlags, queueTarget, targetSecrets } from '../fleet/queue-flags.js';
import { commandLogger, logFlags } from '../run/command-logger.js';
import { ServiceCommand } from '../service-command.js';

/** The flags the scheduler of a fleet reads. */
type SchedulerFlags = Parameters<typeof commandLogger>[0] & {
  queue?: string | undefined;
  attempts?: number | undefined;
  'backoff-seconds'?: number | undefined;
};

/** How long an exit may wait for runs that ignored their abort before the process ends anyway. */
const FORCED_EXIT_MS = 5_000;

/** `oaa daemon`: runs the connectors of a config file on their cron schedules until stopped. */
export default class Daemon extends ServiceCommand {
  // The output is the log (JSON lines on stderr); there is no result to print.
  static override enableJsonFlag = false;
  static override summary = 'Run the connectors of a config file on their cron schedules.';
  static override description = `Every connector with a \`schedule\` (cron, seconds allowed: "*/30 * * * * *") runs in its
\`timezone\`, after a random delay of up to \`jitterSeconds\`. A connector never overlaps itself: a tick
while its run is still going is skipped and counted; --concurrency limits runs across connectors.
Serves GET /healthz (JSON; 503 while stopping) and GET /metrics (Prometheus text). Logs JSON lines
on stderr. SIGHUP reloads the config (a bad one is logged and the old one kept). SIGTERM or Ctrl-C
stops scheduling, waits up to --grace-seconds for runs in progress, then aborts them (their state
is unchanged) and exits non-zero. Without a target the embedded emulator is used.

With --queue (or --queue-file, or OAA_QUEUE_URL set) the daemon is the scheduler of a fleet instead:
each connector's schedule becomes a BullMQ job scheduler in that Redis (time zone kept; the jitter is
taken by the worker that runs the job), and \`oaa worker\` processes run the jobs. Several schedulers
may run at once: each tick still makes one job. SIGHUP reloads the config and updates the schedules
(a connector removed from the config loses its schedule). It needs no service credentials; the
workers resolve them.`;

  static override examples = [
    { description: 'Run ./oaa.config.yaml on its schedules', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Metrics on all interfaces, two runs at a time, one minute to finish at shutdown',
      command:
        '<%= config.bin %> <%= command.id %> --config /etc/oaa/oaa.config.yaml --host 0.0.0.0 --concurrency 2 --grace-seconds 60',
    },
    {
      description: 'Schedule the connectors on a fleet (run `oaa worker` on each host)',
      command:
        'OAA_REDIS_PASSWORD=... <%= config.bin %> <%= command.id %> --queue redis://redis.internal:6379/0',
    },
  ];

  static override flags = {
    config: Flags.string({
      char: 'c',
      description: 'config file (default: oaa.config.yaml, .yml or .json in this directory)',
    }),
    port: Flags.integer({
      description: 'port of /healthz and /metrics; 0 picks a free one (default: daemon.port, else 9464)',
      min: 0,
      max: 65535,
    }),
    host: Flags.string({
      description: 'address to serve /healthz and /metrics on (default: daemon.host, else 127.0.0.1)',
    }),
    concurrency: Flags.integer({
      description: 'runs in progress at once, across connectors (default: daemon.concurrency, else 2)',
      min: 1,
      max: 64,
    }),
    'grace-seconds': Flags.integer({
      description:
        'seconds to wait for runs at shutdown before aborting them (default: daemon.graceSeconds, else 30)',
      min: 0,
      max: 3600,
    }),
    ...logFlags,
    ...queueFlags,
    attempts: Flags.integer({
      description: 'with --queue: attempts per run job, the first included (default 3)',
      min: 1,
      max: 100,
      helpGroup: 'FLEET',
    }),
    'backoff-seconds': Flags.integer({
      description: 'with --queue: delay before the first retry, doubled for each further one (default 30)',
      min: 0,
      max: 86_400,
      helpGroup: 'FLEET',
    }),
  };

  async run(): Promise<undefined> {
    const { flags } = await this.parse(Daemon);
    // Asking for the signal now makes SIGTERM and Ctrl-C stop the daemon gracefully from here on.
    const { signal } = this;
    // Loaded here, not at the top: oclif imports every command module at start-up.
    const { loadConfig, startDaemon } = await import('@oaakit/runner');
    // Installed first: without a handler, SIGHUP would end the process. It reloads once started.
    const hangup: { reload?: () => void } = {};
    const onHangup = (): void => hangup.reload?.();
    process.on('SIGHUP', onHangup);
    this.onCleanup(() => void process.off('SIGHUP', onHangup));

    const loaded = await loadConfig(flags.config === undefined ? {} : { path: flags.config });
    // --queue, --queue-file or OAA_QUEUE_URL: each of them is in flags.queue by now.
    if (flags.queue !== undefined) return this.schedule(flags, loaded, signal, hangup);
    const connection = await this.connect(flags, loaded.config.target);
    const secrets = [connection.apiKey, flags['api-key'], process.env['OAA_API_KEY']].filter(
      (s): s is string => s !== undefined,
    );
    const logger = await commandLogger(flags, secrets);
    const daemon = await startDaemon({
      loaded,
      client: connection.client,
      logger,
      settings: {
        ...(flags.port === undefined ? {} : { port: flags.port }),
        ...(flags.host === undefined ? {} : { host: flags.host }),
        ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
        ...(flags['grace-seconds'] === undefined ? {} : { graceSeconds: flags['grace-seconds'] }),
      },
    });
    hangup.reload = () => void daemon.reload();

    if (!signal.aborted) await once(signal, 'abort');
    const outcome = await daemon.stop();
    // A connector that ignores its AbortSignal may keep the event loop alive; do not wait for it.
    if (outcome.abandoned) setTimeout(() => process.exit(), FORCED_EXIT_MS).unref();
    if (outcome.aborted.length > 0) {
      throw new OaaError(
        `the shutdown grace period ran out; aborted the runs of ${outcome.aborted.join(', ')} (their state is unchanged)`,
        {
          code: 'ABORTED',
          details: { aborted: outcome.aborted },
          hints: ['raise --grace-seconds (or daemon.graceSeconds in the config) to let runs finish'],
        },
      );
    }
    return undefined;
  }

  /** `--queue`: the connectors' schedules as BullMQ job schedulers, until stopped. */
  private async schedule(
    flags: SchedulerFlags,
    loaded: LoadedConfig,
    signal: AbortSignal,
    hangup: { reload?: () => void },
  ): Promise<undefined> {
    const target = await queueTarget(flags.queue, this.secretOrigin('queue')?.origin);
    const secrets = targetSecrets(target);
    for (const secret of secrets) this.addSecret(secret);
    const logger = await commandLogger(flags, secrets);
    const { startFleetScheduler } = await import('@oaakit/fleet');
    const scheduler = await startFleetScheduler({
      target,
      loaded,
      logger,
      retry: {
        ...(flags.attempts === undefined ? {} : { attempts: flags.attempts }),
        ...(flags['backoff-seconds'] === undefined ? {} : { backoffMs: flags['backoff-seconds'] * 1000 }),
      },
    });
    hangup.reload = () => void scheduler.reload();
    if (!signal.aborted) await once(signal, 'abort');
    await scheduler.stop();
    return undefined;
  }
}
