/**
 * The logging surface the client needs; a pino logger fits it as is. The client never passes
 * headers or credentials to it.
 */
export interface ClientLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** A logger that drops everything; the default. */
export const silentLogger: ClientLogger = {
  debug: () => undefined,
  warn: () => undefined,
};
