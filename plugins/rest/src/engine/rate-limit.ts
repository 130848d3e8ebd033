/**
 * The manifest's rate limit: at most `maxConcurrency` requests in flight, and request starts at
 * least 1/`requestsPerSecond` apart. The clock and the wait are injected, so the schedule can be
 * checked without waiting.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface RateLimitOptions {
  requestsPerSecond?: number | undefined;
  maxConcurrency?: number | undefined;
  /** Milliseconds now; default `performance.now`. */
  now?: () => number;
  /** Waits `ms`; default a timer that the signal cancels. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export class RateLimit {
  private readonly interval: number;
  private max: number;
  private readonly now: () => number;
  private readonly wait: (ms: number, signal: AbortSignal) => Promise<void>;
  /** When the next request may start. */
  private next = -Infinity;
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(options: RateLimitOptions = {}) {
    this.interval = options.requestsPerSecond === undefined ? 0 : 1000 / options.requestsPerSecond;
    this.max = options.maxConcurrency ?? Infinity;
    this.now = options.now ?? (() => performance.now());
    this.wait = options.wait ?? ((ms, signal) => sleep(ms, undefined, { signal }));
  }

  /** Sets the most requests in flight (before the first request). */
  setMaxConcurrency(max: number): void {
    this.max = max;
  }

  /** Runs `task` when the limit allows: a slot free, and its start time come. */
  async run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active += 1;
    try {
      if (this.interval > 0) {
        const now = this.now();
        const start = Math.max(now, this.next);
        this.next = start + this.interval;
        if (start > now) await this.wait(start - now, signal);
      }
      signal.throwIfAborted();
      return await task();
    } finally {
      this.active -= 1;
      this.queue.shift()?.();
    }
  }
}
