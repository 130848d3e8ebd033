/**
 * Caps on what the emulator keeps between requests: open multipart uploads, injected faults, API
 * keys, console sessions and stored events. The service states none of them; they keep a caller
 * (or a long-running emulator) from growing the emulator's memory or database without end. Each can
 * be set with `startEmulator({ limits })` (tests set small ones); the README's "Limits and safety"
 * lists them.
 *
 * What happens past a cap depends on who made the thing: what a caller asks for (an upload, a fault,
 * a key) is refused with a 400 naming the cap and what to free; what piles up as a side effect of
 * normal use (events, console sessions) makes room by dropping the oldest, since refusing would
 * stop the emulator working (no push could record its event, no one could sign in).
 */

/** The caps of one emulator (see `DEFAULT_LIMITS` for their values). */
export interface EmulatorLimits {
  /**
   * Multipart uploads started and neither completed nor expired, per caller: an API key, an OAuth2
   * app acting for one user, or a console user. Past it, `start` is a 400.
   */
  maxOpenUploadsPerKey: number;
  /** Faults registered at once (`/_emulator/faults`). Past it, registering one is a 400. */
  maxFaults: number;
  /** API keys stored, revoked ones included (`/_emulator/api_keys`). Past it, creating one is a 400. */
  maxApiKeys: number;
  /** Live console sessions of one user. A sign-in past it ends that user's oldest session. */
  maxSessionsPerUser: number;
  /** Events stored. Recording one past it deletes the oldest (in the order they were stored). */
  maxEvents: number;
}

/**
 * The caps when none are given. 16 uploads: a client uploads payloads over 100 MB one or a few at a
 * time, and an upload abandoned by a crashed client expires after an hour idle. 1,000 faults and keys,
 * as the 1,000 console users and OAuth2 apps: far more than a test or a team uses, and each is
 * checked on a request (faults one by one, on every API call). 10 sessions per user: one per browser
 * or test client. 100,000 events: 50,000 pushes, and well within the events API's page limits.
 */
export const DEFAULT_LIMITS: Readonly<EmulatorLimits> = Object.freeze({
  maxOpenUploadsPerKey: 16,
  maxFaults: 1000,
  maxApiKeys: 1000,
  maxSessionsPerUser: 10,
  maxEvents: 100_000,
});

/** `given` over the defaults; throws naming the option when a cap is not an integer of at least 1. */
export function resolveLimits(given: Partial<EmulatorLimits> = {}): EmulatorLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(given) as [string, unknown][]) {
    if (!Object.hasOwn(DEFAULT_LIMITS, name))
      throw new TypeError(
        `limits.${name} is not a limit of the emulator; the limits are ${Object.keys(DEFAULT_LIMITS).join(', ')}`,
      );
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      const given = typeof value === 'number' ? String(value) : `a ${typeof value}`;
      throw new TypeError(`limits.${name} must be an integer of at least 1, not ${given}`);
    }
    limits[name as keyof EmulatorLimits] = value;
  }
  return limits;
}
