/**
 * The logger the emulator writes to: the subset of pino's interface it uses, so a pino instance can be
 * passed as is. Nothing secret (API keys, authorization headers, payload contents) is ever logged.
 * Errors are logged under `err` as the Error itself, so pino shows their type, code, stack and cause.
 */
import { pino } from 'pino';
import type { LevelWithSilent } from 'pino';

export interface EmulatorLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = (): void => undefined;

/** A logger that drops everything: the default. */
export const silentLogger: EmulatorLogger = { debug: noop, info: noop, warn: noop, error: noop };

/**
 * A pino logger writing JSON lines through `write` (stderr, in `oaa-emulator`) from `level` up;
 * default `error`: unexpected errors only, each with its cause.
 */
export function lineLogger(write: (line: string) => void, level: LevelWithSilent = 'error'): EmulatorLogger {
  return pino({ level, base: null, timestamp: pino.stdTimeFunctions.isoTime }, { write });
}
