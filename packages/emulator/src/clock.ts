/**
 * The emulator's time. Everything time-dependent (timestamps, event times, upload-session expiry,
 * later token lifetimes) reads this clock, so tests can move time instead of waiting.
 */

export interface EmulatorClockOptions {
  /** Initial time; default: the real time. */
  start?: Date | string | number;
  /** Stand still until set or advanced (default false: time flows from `start`). */
  frozen?: boolean;
  /** Source of real time in milliseconds; default `Date.now`. */
  source?: () => number;
}

/** A clock that flows with real time by default and can be set, advanced and frozen. */
export class EmulatorClock {
  private readonly source: () => number;
  private offset = 0;
  private frozenAt: number | undefined;

  constructor(options: EmulatorClockOptions = {}) {
    this.source = options.source ?? Date.now;
    if (options.start !== undefined) this.set(options.start);
    if (options.frozen) this.freeze();
  }

  /** Current time in milliseconds since the epoch. */
  nowMs(): number {
    return this.frozenAt ?? this.source() + this.offset;
  }

  /** Current time. */
  now(): Date {
    return new Date(this.nowMs());
  }

  /** Current time as an RFC 3339 string. */
  iso(): string {
    return this.now().toISOString();
  }

  get frozen(): boolean {
    return this.frozenAt !== undefined;
  }

  /** Jumps to `time`; a frozen clock stays frozen there. */
  set(time: Date | string | number): void {
    const ms = new Date(time).getTime();
    if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${String(time)}`);
    if (this.frozenAt !== undefined) this.frozenAt = ms;
    else this.offset = ms - this.source();
  }

  /** Moves time forward (or back, with a negative value) by `ms` milliseconds. */
  advance(ms: number): void {
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    else this.offset += ms;
  }

  /** Stops time at the current instant. */
  freeze(): void {
    this.frozenAt ??= this.nowMs();
  }

  /** Lets time flow again from the current instant. */
  unfreeze(): void {
    if (this.frozenAt === undefined) return;
    this.offset = this.frozenAt - this.source();
    this.frozenAt = undefined;
  }
}
