/**
 * The logger of a long-running command (`oaa daemon`, `oaa worker`): pino JSON lines on stderr (or
 * pretty lines), with the runner's redaction by key and the command's secrets scrubbed from the text.
 */
import { Writable } from 'node:stream';
import { Flags } from '@oclif/core';
import type { Logger } from '@oaakit/runner';
import { scrub } from '../output/render-error.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** `--log-level` and `--log-format`. */
export const logFlags = {
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

/** A logger writing to stderr that never shows one of `secrets`. */
export async function commandLogger(
  flags: { 'log-level': (typeof LOG_LEVELS)[number]; 'log-format': 'json' | 'pretty' },
  secrets: readonly string[],
): Promise<Logger> {
  const { createLogger } = await import('@oaakit/runner');
  return createLogger({
    level: flags['log-level'],
    pretty: flags['log-format'] === 'pretty',
    colorize: flags['log-format'] === 'pretty' && process.stderr.isTTY,
    // Redaction by key is the logger's; this catches a secret that shows up inside a message.
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        process.stderr.write(scrub(chunk.toString('utf8'), [...secrets]));
        done();
      },
    }),
  });
}
