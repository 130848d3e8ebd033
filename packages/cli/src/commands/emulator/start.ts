import { once } from 'node:events';
import { Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import type { StartEmulatorOptions } from '@oaakit/emulator';
import { BaseCommand } from '../../base-command.js';
import { secretFlags } from '../../secret-flags.js';

/** `oaa emulator start`: the local service, in the foreground, until Ctrl-C or SIGTERM. */
export default class EmulatorStart extends BaseCommand {
  static override summary = 'Start the local emulator of the service and keep it running.';
  static override description = `Serves the whole service interface locally (what oaa-emulator does), prints one line with its URL, and runs until interrupted (Ctrl-C or SIGTERM), then stops cleanly. Unexpected errors (answered with 500) are logged to stderr as JSON lines with their cause, unless --quiet. Without an admin key (--api-key, --api-key-file or OAA_EMULATOR_API_KEY) one is generated and printed on that line. Point other commands at it with --url and --api-key, or OAA_URL and OAA_API_KEY.`;

  static override examples = [
    { description: 'Start on a free port, state in memory', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Fixed port and key, state kept in a file',
      command:
        '<%= config.bin %> <%= command.id %> --port 8443 --tls --db emulator.db --api-key-file emulator-keys.txt',
    },
    {
      description: 'Send subscription alerts to a local SMTP server',
      command: '<%= config.bin %> <%= command.id %> --smtp smtp://127.0.0.1:1025',
    },
  ];

  static override flags = {
    port: Flags.integer({
      description: 'port to listen on (0 picks a free one)',
      default: 0,
      min: 0,
      max: 65535,
    }),
    host: Flags.string({ description: 'address to bind', default: '127.0.0.1' }),
    tls: Flags.boolean({ description: 'serve HTTPS with a self-signed certificate generated at start' }),
    db: Flags.string({ description: 'SQLite file to keep state in (default: in memory)' }),
    // Its own variable, not OAA_API_KEY: a key a shell holds for a service must not become the
    // emulator's admin key by accident.
    ...secretFlags(
      {
        name: 'api-key',
        env: 'OAA_EMULATOR_API_KEY',
        exposes: (key) => (key === '' ? undefined : 'an admin API key'),
        multiple: true,
      },
      {
        description: 'accept this admin API key (repeatable); without one a key is generated',
        fileDescription: 'file holding the admin API keys to accept, one per line',
      },
    ),
    smtp: Flags.string({
      description:
        'send mail (subscription alerts) through this SMTP server: smtp://HOST:PORT or smtps://HOST:PORT, optional ?from=ADDRESS',
    }),
    quiet: Flags.boolean({
      char: 'q',
      description: 'log nothing (by default unexpected errors go to stderr as JSON lines, with their cause)',
    }),
  };

  async run(): Promise<undefined> {
    const { flags } = await this.parse(EmulatorStart);
    const { signal } = this;
    const options: StartEmulatorOptions = { port: flags.port, host: flags.host };
    if (flags.tls) options.tls = true;
    if (flags.db !== undefined) options.dbPath = flags.db;
    if (flags['api-key'] !== undefined)
      options.apiKeys = flags['api-key'].map((key) => ({ key, role: 'admin' as const }));
    // Loaded here, not at the top: oclif imports every command module at start-up.
    const { createLogger } = await import('@oaakit/runner');
    options.logger = createLogger({ level: flags.quiet ? 'silent' : 'error' });
    const { startEmulator, parseSmtpUrl } = await import('@oaakit/emulator');
    if (flags.smtp !== undefined) {
      try {
        options.smtp = parseSmtpUrl(flags.smtp);
      } catch (err) {
        throw new OaaError((err as Error).message, { code: 'USAGE' });
      }
    }
    const emulator = await startEmulator(options);
    this.onCleanup(() => emulator.close());
    const generatedKey = emulator.adminKeyGenerated ? emulator.adminKey : undefined;
    if (this.jsonEnabled()) {
      this.logJsonLine({
        url: emulator.url,
        adminKey: generatedKey ?? null,
        tls: emulator.certificate !== undefined,
      });
    } else {
      this.log(
        `oaa emulator listening on ${emulator.url}${generatedKey === undefined ? '' : ` (admin API key: ${generatedKey})`}`,
      );
    }
    if (!signal.aborted) await once(signal, 'abort');
    return undefined;
  }
}
