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

/**
 * What `clean` made of each object met in one log call: an object met twice (shared, or in a
 * cycle) is cleaned once, and a cycle is copied as a cycle.
 */
type Cleaned = Map<object, unknown>;

/** The fields of `from` cleaned into `into`; whether any of them changed. */
function cleanFields(
  from: object,
  into: Record<string, unknown>,
  secrets: readonly string[],
  done: Cleaned,
): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(from)) {
    const c = clean(v, secrets, done);
    if (c !== v) changed = true;
    into[k] = c;
  }
  return changed;
}

/** `value` with every secret in its strings replaced; the value itself when it holds none. */
function clean(value: unknown, secrets: readonly string[], done: Cleaned): unknown {
  if (typeof value === 'string') return cleanText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (done.has(value)) return done.get(value);
  if (value instanceof Error) {
    // A copy of the same kind, so that the log shows it as it shows the error. Made first: a
    // field that leads back to the error gets the copy (and so counts as a change).
    const copy = Object.create(Object.getPrototypeOf(value) as object) as Error;
    done.set(value, copy);
    const changedFields = cleanFields(value, copy as unknown as Record<string, unknown>, secrets, done);
    const message = cleanText(value.message, secrets);
    const stack = value.stack === undefined ? undefined : cleanText(value.stack, secrets);
    const cause = value.cause === undefined ? undefined : clean(value.cause, secrets, done);
    if (!changedFields && message === value.message && stack === value.stack && cause === value.cause) {
      done.set(value, value);
      return value;
    }
    Object.defineProperty(copy, 'message', { value: message, writable: true, configurable: true });
    if (stack !== undefined)
      Object.defineProperty(copy, 'stack', { value: stack, writable: true, configurable: true });
    if (cause !== undefined)
      Object.defineProperty(copy, 'cause', { value: cause, writable: true, configurable: true });
    return copy;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    done.set(value, out);
    let changed = false;
    for (const v of value as unknown[]) {
      const c = clean(v, secrets, done);
      if (c !== v) changed = true;
      out.push(c);
    }
    if (changed) return out;
    done.set(value, value);
    return value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    // Not a plain object (a URL, a Map...): judged by what the log would show of it.
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      // A cycle or a BigInt: the logger's own serializer writes what it can of it.
      return value;
    }
    const result =
      text === undefined || !secrets.some((s) => text.includes(s))
        ? value
        : (JSON.parse(cleanText(text, secrets)) as unknown);
    done.set(value, result);
    return result;
  }
  const out: Record<string, unknown> = {};
  done.set(value, out);
  if (cleanFields(value, out, secrets, done)) return out;
  done.set(value, value);
  return value;
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
        const done: Cleaned = new Map();
        original.apply(
          logger,
          args.map((a) => clean(a, found, done)),
        );
      },
    });
  }
  Object.defineProperty(wrapped, 'child', {
    configurable: true,
    writable: true,
    value(bindings: Record<string, unknown>, options?: object): Logger {
      const cleaned = clean(bindings, found, new Map()) as Record<string, unknown>;
      return scrubbingLogger(logger.child(cleaned, options), secrets);
    },
  });
  return wrapped;
}
