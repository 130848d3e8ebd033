/**
 * The runner's logger as the CLI configures it: errors only by default (the command itself prints
 * the warnings and the summary), on stderr, readable on a terminal; `OAA_LOG_LEVEL` and `OAA_LOG_FORMAT=json`
 * change that.
 */
import { createLogger } from '@oaakit/runner';
import type { Logger } from '@oaakit/runner';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type Level = (typeof LEVELS)[number];

function isLevel(value: string | undefined): value is Level {
  return (LEVELS as readonly (string | undefined)[]).includes(value);
}

/** A logger for a run started from the command line. */
export function createRunLogger(env: Record<string, string | undefined> = process.env): Logger {
  const level = env['OAA_LOG_LEVEL'];
  return createLogger({
    level: isLevel(level) ? level : 'error',
    pretty: env['OAA_LOG_FORMAT'] !== 'json',
    colorize: process.stderr.isTTY,
  });
}
