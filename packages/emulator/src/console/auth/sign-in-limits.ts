/**
 * Limits on console sign-in attempts, on the emulator clock (tests move it instead of waiting).
 * After `MAX_ACCOUNT_FAILURES` wrong passwords for one email, or `MAX_ADDRESS_FAILURES` from one
 * client address, within `FAILURE_WINDOW_MS`, sign-in for that email (or from that address) is
 * refused for `LOCKOUT_MS`: 429 with `Retry-After`, the right password included, since an answer
 * that told right from wrong would let guessing go on. Emails that belong to no user count the same,
 * so a lockout tells nothing about which accounts exist. A successful sign-in clears its email's
 * count; an address's count only runs out with its window.
 */

/** Wrong passwords for one email, within the window, that lock it. */
export const MAX_ACCOUNT_FAILURES = 5;
/** Failed sign-ins from one client address (any emails), within the window, that lock it. */
export const MAX_ADDRESS_FAILURES = 20;
/** How long failures are remembered: counting starts again after this long from the first one. */
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** How long a lock lasts. */
export const LOCKOUT_MS = 15 * 60 * 1000;
/** Most emails and addresses tracked at once; past it, expired and then the oldest unlocked entries go. */
export const MAX_TRACKED = 10_000;

interface Counter {
  failures: number;
  firstAtMs: number;
  lockedUntilMs: number;
}

/** What a sign-in attempt is counted against. */
export interface SignInKeys {
  /** The email, normalised. */
  account: string;
  /** The client's address. */
  address: string;
}

/** A lock that a failure started. */
export interface NewLock {
  kind: 'account' | 'address';
  /** The email or the address. */
  subject: string;
  failures: number;
}

/**
 * Failure counts and locks of console sign-in, by email and by client address. An attempt counts as
 * failed from the moment it starts (`begin`) until its password proves right (`succeeded`), so
 * attempts sent all at once cannot all pass the check while the first ones are still being verified.
 */
export class SignInLimits {
  private readonly counters = new Map<string, Counter>();

  /**
   * Starts an attempt: 0 when it may go on (it is counted), else the milliseconds to wait (the
   * longer of both locks; 1 second while as many attempts as the limit are still being verified).
   */
  begin(keys: SignInKeys, nowMs: number): number {
    let wait = 0;
    const counters = this.countersOf(keys, nowMs);
    for (const [c, max] of counters) {
      if (c.lockedUntilMs > nowMs) wait = Math.max(wait, c.lockedUntilMs - nowMs);
      else if (c.failures >= max) wait = Math.max(wait, 1000);
    }
    if (wait === 0) for (const [c] of counters) c.failures += 1;
    return wait;
  }

  /** Ends an attempt whose password was wrong: answers the locks it started. */
  failed(keys: SignInKeys, nowMs: number): NewLock[] {
    const locks: NewLock[] = [];
    for (const [c, max, kind, subject] of this.countersOf(keys, nowMs)) {
      if (c.failures < max || c.lockedUntilMs > nowMs) continue;
      c.lockedUntilMs = nowMs + LOCKOUT_MS;
      locks.push({ kind, subject, failures: c.failures });
      // Counting starts again when the lock ends.
      c.firstAtMs = c.lockedUntilMs - FAILURE_WINDOW_MS;
      c.failures = 0;
    }
    return locks;
  }

  /** Ends an attempt whose password was right: clears the email's count, takes it off the address's. */
  succeeded(keys: SignInKeys): void {
    this.counters.delete(keyOf('account', keys.account));
    const address = this.counters.get(keyOf('address', keys.address));
    if (address && address.failures > 0) address.failures -= 1;
  }

  /** The two counters of an attempt (fresh ones where none is live), with their limits. */
  private countersOf(keys: SignInKeys, nowMs: number): [Counter, number, NewLock['kind'], string][] {
    return (
      [
        ['account', keys.account, MAX_ACCOUNT_FAILURES],
        ['address', keys.address, MAX_ADDRESS_FAILURES],
      ] as const
    ).map(([kind, subject, max]) => {
      const key = keyOf(kind, subject);
      let c = this.counters.get(key);
      if (!c || (c.lockedUntilMs <= nowMs && nowMs - c.firstAtMs >= FAILURE_WINDOW_MS)) {
        c = { failures: 0, firstAtMs: nowMs, lockedUntilMs: 0 };
        this.store(key, c, nowMs);
      }
      return [c, max, kind, subject];
    });
  }

  private store(key: string, counter: Counter, nowMs: number): void {
    this.counters.delete(key);
    if (this.counters.size >= MAX_TRACKED) {
      for (const [k, c] of this.counters)
        if (c.lockedUntilMs <= nowMs && nowMs - c.firstAtMs >= FAILURE_WINDOW_MS) this.counters.delete(k);
    }
    if (this.counters.size >= MAX_TRACKED) {
      for (const [k, c] of this.counters) {
        if (c.lockedUntilMs > nowMs) continue;
        this.counters.delete(k);
        if (this.counters.size < MAX_TRACKED) break;
      }
    }
    this.counters.set(key, counter);
  }
}

function keyOf(kind: NewLock['kind'], subject: string): string {
  return `${kind}\u0000${subject}`;
}
