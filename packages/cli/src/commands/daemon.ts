import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { scrub } from '../output/render-error.js';
import { ServiceCommand } from '../service-command.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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
is unchanged) and exits non-zero. Without a target the embedded emulator is used.`;

  static override examples = [
    { description: 'Run ./oaa.config.yaml on its schedules', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Metrics on all interfaces, two runs at a time, one minute to finish at shutdown',
      command:
        '<%= config.bin %> <%= command.id %> --config /etc/oaa/oaa.config.yaml --host 0.0.0.0 --concurrency 2 --grace-seconds 60',
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
    'log-level': Flags.option({
      options: LOG_LEVELS,
      default: 'info',
      env: 'OAA_LOG_LEVEL',
      description: 'lowest level logged',
    })(),
    'log-format': Flags.option({
      options: ['json', 'pretty'] as const,
      default: 'json',
      description: 'JSON lines, or readable lines for a terminal',
    })(),
  };

  async run(): Promise<undefined> {
    const { flags } = await this.parse(Daemon);
    // Asking for the signal now makes SIGTERM and Ctrl-C stop the daemon gracefully from here on.
    const { signal } = this;
    // Loaded here, not at the top: oclif imports every command module at start-up.
    const { createLogger, loadConfig, startDaemon } = await import('@oaakit/runner');
    // Installed first: without a handler, SIGHUP would end the process. It reloads once started.
    const hangup: { reload?: () => void } = {};
    const onHangup = (): void => hangup.reload?.();
    process.on('SIGHUP', onHangup);
    this.onCleanup(() => void process.off('SIGHUP', onHangup));

    const loaded = await loadConfig(flags.config === undefined ? {} : { path: flags.config });
    const connection = await this.connect(flags, loaded.config.target);
    const secrets = [connection.apiKey, flags['api-key'], process.env['OAA_API_KEY']].filter(
      (s): s is string => s !== undefined,
    );
    const logger = createLogger({
      level: flags['log-level'],
      pretty: flags['log-format'] === 'pretty',
      colorize: flags['log-format'] === 'pretty' && process.stderr.isTTY,
      // Redaction by key is the logger's; this catches a key that shows up inside a message.
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          process.stderr.write(scrub(chunk.toString('utf8'), secrets));
          done();
        },
      }),
    });
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
}
