/**
 * The `oaa-emulator` command line: parses flags, starts the emulator and prints one line with its
 * URL (and the admin key when it generated one); unexpected errors are logged to `err` unless
 * `--quiet`. `bin.ts` wires it to the process and its signals.
 */
import { parseArgs } from 'node:util';
import { lineLogger, silentLogger } from './logger.js';
import { parseSmtpUrl } from './mail/send-mail.js';
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from './server.js';

export const USAGE = `usage: oaa-emulator [--port N] [--host ADDR] [--tls] [--db FILE] [--api-key KEY]... [--smtp URL] [--quiet]
  --port N        port to listen on (0, the default, picks a free one)
  --host ADDR     address to bind (default 127.0.0.1)
  --tls           serve HTTPS with a self-signed certificate generated at start
  --db FILE       SQLite file to keep state in (default: in memory)
  --api-key KEY   accept KEY as an admin API key (repeatable); without it a key is generated and printed
  --smtp URL      send mail (subscription alerts) through smtp://HOST:PORT or smtps://HOST:PORT[?from=ADDR]
  --quiet         log nothing (by default unexpected errors go to stderr as JSON lines, with their cause)
`;

/** Where the command writes. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

/** The command's outcome: a running emulator, or an exit code when it did not start one. */
export type CliResult = { emulator: RunningEmulator } | { exitCode: number };

/** Parses `argv` (without node and script) into emulator options, or a usage error. */
export function parseCliArgs(
  argv: readonly string[],
): { options: StartEmulatorOptions; quiet: boolean } | { help: true } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        tls: { type: 'boolean' },
        db: { type: 'string' },
        'api-key': { type: 'string', multiple: true },
        smtp: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (values.help) return { help: true };
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { error: `--port must be a port number, not ${values.port}` };
  const options: StartEmulatorOptions = { port };
  if (values.host !== undefined) options.host = values.host;
  if (values.tls) options.tls = true;
  if (values.db !== undefined) options.dbPath = values.db;
  if (values['api-key']?.length)
    options.apiKeys = values['api-key'].map((key) => ({ key, role: 'admin' as const }));
  if (values.smtp !== undefined) {
    try {
      options.smtp = parseSmtpUrl(values.smtp);
    } catch (err) {
      return { error: (err as Error).message };
    }
  }
  return { options, quiet: values.quiet ?? false };
}

/** Runs the command: starts the emulator and prints its line, or prints usage. */
export async function runCli(argv: readonly string[], output: CliOutput): Promise<CliResult> {
  const parsed = parseCliArgs(argv);
  if ('help' in parsed) {
    output.out(USAGE);
    return { exitCode: 0 };
  }
  if ('error' in parsed) {
    output.err(`oaa-emulator: ${parsed.error}\n${USAGE}`);
    return { exitCode: 2 };
  }
  const logger = parsed.quiet ? silentLogger : lineLogger((line) => output.err(line));
  const emulator = await startEmulator({ ...parsed.options, logger });
  output.out(
    `oaa-emulator listening on ${emulator.url}${emulator.adminKeyGenerated ? ` (admin API key: ${emulator.adminKey})` : ''}\n`,
  );
  return { emulator };
}
