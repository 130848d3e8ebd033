/**
 * Polling for a condition, for tests that wait on another process or a timer: no sleep-and-hope,
 * a generous deadline for loaded machines, and a message naming what never happened.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Options of {@link until}. */
export interface UntilOptions {
  /** Give up after this long; default 30 s. */
  timeoutMs?: number;
  /** Pause between checks; default 50 ms. */
  intervalMs?: number;
  /** More to say when it times out, e.g. a child process's stderr. */
  context?: () => string;
}

/**
 * Calls `check` until it returns something other than `undefined` or `false`, and returns that.
 *
 * @example
 * const start = await until('the daemon to start', () => log.find((l) => l.event === 'daemon.start'));
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const more = options.context?.() ?? '';
      throw new Error(`timed out waiting for ${what}${more === '' ? '' : `\n${more}`}`);
    }
    await sleep(options.intervalMs ?? 50);
  }
}
