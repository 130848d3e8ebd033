/**
 * The run's logger, with the run's secret values taken out of everything logged. The logger's
 * redaction works by key (`apiKey`, `token`...); a secret can also arrive inside a message (`GET
 * https://x?key=...`), an error's text or a field of any name, from the runner or from the
 * connector. Each logged argument is searched for each secret value (JSON-escaped too), and a
 * value that holds one is logged with `[REDACTED]` in its place.
 */
import type { Logger } from 'pino';

const CENSOR = '[REDACTED]';
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** Secret values long enough to be told apart from ordinary text, as written and JSON-escaped. */
function needles(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s.length < 4) continue;
    out.add(s);
    out.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so that a secret containing another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

function cleanText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.replaceAll(s, CENSOR);
  return out;
}

/** `value` with every secret in its strings replaced; the value itself when it holds none. */
function clean(value: unknown, secrets: readonly string[], seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return cleanText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return value;
  seen.add(value);
  if (value instanceof Error) {
    let changed = false;
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const c = clean(v, secrets, seen);
      if (c !== v) changed = true;
      fields[k] = c;
    }
    const message = cleanText(value.message, secrets);
    const stack = value.stack === undefined ? undefined : cleanText(value.stack, secrets);
    const cause = value.cause === undefined ? undefined : clean(value.cause, secrets, seen);
    if (!changed && message === value.message && stack === value.stack && cause === value.cause) return value;
    // A copy of the same kind, so that the log shows it as it shows the error.
    const copy = Object.create(Object.getPrototypeOf(value) as object) as Error;
    Object.defineProperty(copy, 'message', { value: message, writable: true, configurable: true });
    if (stack !== undefined)
      Object.defineProperty(copy, 'stack', { value: stack, writable: true, configurable: true });
    if (cause !== undefined)
      Object.defineProperty(copy, 'cause', { value: cause, writable: true, configurable: true });
    return Object.assign(copy, fields);
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v: unknown) => {
      const c = clean(v, secrets, seen);
      if (c !== v) changed = true;
      return c;
    });
    return changed ? out : value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    // Not a plain object (a URL, a Map...): judged by what the log would show of it.
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined || !secrets.some((s) => text.includes(s))) return value;
    return JSON.parse(cleanText(text, secrets)) as unknown;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const c = clean(v, secrets, seen);
    if (c !== v) changed = true;
    out[k] = c;
  }
  return changed ? out : value;
}

/**
 * `logger` that never logs one of `secrets`: each level's arguments, and a child's bindings, have
 * the values replaced. The same logger when there are no secrets.
 */
export function scrubbingLogger(logger: Logger, secrets: readonly string[]): Logger {
  const found = needles(secrets);
  if (found.length === 0) return logger;
  const wrapped = Object.create(logger) as Logger;
  for (const level of LEVELS) {
    const original: (...args: unknown[]) => void = logger[level];
    Object.defineProperty(wrapped, level, {
      configurable: true,
      writable: true,
      value(...args: unknown[]): void {
        if (!logger.isLevelEnabled(level)) return;
        const seen = new WeakSet<object>();
        original.apply(
          logger,
          args.map((a) => clean(a, found, seen)),
        );
      },
    });
  }
  Object.defineProperty(wrapped, 'child', {
    configurable: true,
    writable: true,
    value(bindings: Record<string, unknown>, options?: object): Logger {
      const cleaned = clean(bindings, found, new WeakSet()) as Record<string, unknown>;
      return scrubbingLogger(logger.child(cleaned, options), secrets);
    },
  });
  return wrapped;
}
