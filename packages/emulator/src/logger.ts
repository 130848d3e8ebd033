/**
 * The logger the emulator writes to: the subset of pino's interface it uses, so a pino instance can be
 * passed as is. Nothing secret (API keys, authorization headers, payload contents) is ever logged.
 */
export interface EmulatorLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = (): void => undefined;

/** A logger that drops everything: the default. */
export const silentLogger: EmulatorLogger = { debug: noop, info: noop, warn: noop, error: noop };
