import { once } from 'node:events';
import { Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { queueFlags, queueTarget, targetSecrets } from '../fleet/queue-flags.js';
import { commandLogger, logFlags } from '../run/command-logger.js';
import { ServiceCommand } from '../service-command.js';

/** How long an exit may wait for runs that ignored their abort before the process ends anyway. */
const FORCED_EXIT_MS = 5_000;

/** `oaa worker`: runs the jobs of a fleet's queue until stopped. */
export default class Worker extends ServiceCommand {
  // The output is the log (JSON lines on stderr); there is no result to print.
  static override enableJsonFlag = false;
  static override summary = 'Run connector jobs from a fleet queue (Redis), on any host.';
  static override description = `Takes the run jobs that \`oaa daemon --queue\` schedules (or \`oaa jobs enqueue\` adds) and runs
each with the same pipeline as \`oaa run\`, using this host's config file, secrets and target. The state
of every data source is kept in the same Redis, shared by all workers, and locked while its run lives
(the lock's lease is renewed; a dead worker's lock ends with its lease). A failed run is retried with
exponential backoff; a job that exhausts its attempts is kept: see \`oaa jobs list\`.
Serves GET /healthz and GET /metrics (Prometheus). Logs JSON lines with the job id on stderr.
SIGTERM or Ctrl-C stops taking jobs, waits up to --grace-seconds for the runs in progress, then
aborts them and returns their jobs to the queue for another worker. SIGHUP reloads the config.`;

  static override examples = [
    {
      description: 'Two runs at a time, from the Redis in OAA_QUEUE_URL',
      command: '<%= config.bin %> <%= command.id %> --concurrency 2',
    },
    {
      description: 'Only the connectors near this host',
      command:
        '<%= config.bin %> <%= command.id %> --queue rediss://redis.internal:6380/0 --connectors "hr-eu-*,scim-eu-*"',
    },
  ];

  static override flags = {
    config: Flags.string({
      char: 'c',
      description: 'config file (default: oaa.config.yaml, .yml or .json in this directory)',
    }),
    ...queueFlags,
    concurrency: Flags.integer({
      description: 'jobs run at once by this worker (default 1)',
      min: 1,
      max: 64,
    }),
    connectors: Flags.string({
      description: 'run only connectors whose id matches: comma-separated globs (hr-*,scim-?)',
    }),
    port: Flags.integer({
      description: 'port of /healthz and /metrics; 0 picks a free one (default 9465)',
      min: 0,
      max: 65535,
    }),
    host: Flags.string({ description: 'address of /healthz and /metrics (default 127.0.0.1)' }),
    'grace-seconds': Flags.integer({
      description: 'seconds to let runs finish at shutdown before returning their jobs (default 30)',
      min: 0,
      max: 3600,
    }),
    'lease-seconds': Flags.integer({
      description:
        'lease of job and data-source locks, renewed every third of it; a dead worker’s job is taken over after about twice this (default 30)',
      min: 1,
      max: 600,
    }),
    ...logFlags,
  };

  async run(): Promise<undefined> {
    const { flags } = await this.parse(Worker);
    const { signal } = this;
    const hangup: { reload?: () => void } = {};
    const onHangup = (): void => hangup.reload?.();
    process.on('SIGHUP', onHangup);
    this.onCleanup(() => void process.off('SIGHUP', onHangup));

    const { loadConfig } = await import('@oaakit/runner');
    const loaded = await loadConfig(flags.config === undefined ? {} : { path: flags.config });
    const target = await queueTarget(flags.queue, this.secretOrigin('queue')?.origin);
    const connection = await this.connect(flags, loaded.config.target);
    const secrets = [
      ...targetSecrets(target),
      connection.apiKey,
      flags['api-key'],
      process.env['OAA_API_KEY'],
    ].filter((s): s is string => s !== undefined);
    for (const secret of secrets) this.addSecret(secret);
    const logger = await commandLogger(flags, secrets);
    const { startFleetWorker } = await import('@oaakit/fleet');
    const worker = await startFleetWorker({
      target,
      loaded,
      client: connection.client,
      logger,
      ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
      ...(flags.connectors === undefined ? {} : { connectors: flags.connectors }),
      ...(flags.port === undefined ? {} : { port: flags.port }),
      ...(flags.host === undefined ? {} : { host: flags.host }),
      ...(flags['grace-seconds'] === undefined ? {} : { graceSeconds: flags['grace-seconds'] }),
      ...(flags['lease-seconds'] === undefined ? {} : { leaseSeconds: flags['lease-seconds'] }),
    });
    hangup.reload = () => void worker.reload();

    if (!signal.aborted) await once(signal, 'abort');
    const outcome = await worker.stop();
    if (outcome.returned.length > 0) {
      // A connector that ignores its AbortSignal may keep the event loop alive; do not wait for it.
      setTimeout(() => process.exit(), FORCED_EXIT_MS).unref();
      throw new OaaError(
        `the shutdown grace period ran out; returned the runs of ${outcome.returned.join(', ')} to the queue`,
        {
          code: 'ABORTED',
          details: { returned: outcome.returned },
          hints: ['raise --grace-seconds to let runs finish'],
        },
      );
    }
    return undefined;
  }
}
