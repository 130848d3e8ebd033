import { createRequire } from 'node:module';
import { destination as pinoDestination, pino } from 'pino';
import type { DestinationStream, Logger, LevelWithSilent } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { PrettyStream } from 'pino-pretty';

/** pino-pretty, loaded when a pretty logger is made (machine-read output never needs it). */
function pretty(options: { destination: DestinationStream; colorize: boolean }): PrettyStream {
  const require = createRequire(import.meta.url);
  const build = require('pino-pretty') as typeof PinoPretty;
  return build(options);
}

/**
 * Paths pino censors in every record: credentials and resolved secret values. This is the one place
 * where redaction is configured; the CLI and the daemon create their loggers with it.
 */
export const REDACT_PATHS: readonly string[] = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'apiKey',
  '*.apiKey',
  'secrets.*',
  '*.secrets.*',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'token',
  '*.token',
];

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** Default `info`. */
  level?: LevelWithSilent;
  /** Human-readable lines (pino-pretty) instead of JSON. */
  pretty?: boolean;
  /** Where records go; default stderr (stdout is for command output). */
  destination?: DestinationStream;
  /** Colours in pretty output; default off. */
  colorize?: boolean;
  /** Fields on every record, e.g. `{ connector: 'hr' }`. */
  base?: Record<string, unknown>;
}

/**
 * A pino logger with the runner's redaction; JSON by default, pretty for terminals.
 *
 * @example
 * const logger = createLogger({ pretty: process.stderr.isTTY, level: 'debug' });
 * logger.info({ apiKey: 'x' }, 'never shows the key'); // apiKey: "[REDACTED]"
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const target = options.destination ?? pinoDestination(2);
  const stream = options.pretty
    ? pretty({ destination: target, colorize: options.colorize ?? false })
    : target;
  return pino(
    {
      level: options.level ?? 'info',
      base: options.base ?? null,
      redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' },
    },
    stream,
  );
}

/** A logger that writes nothing; what the runner uses when none is given. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

export type { Logger };
