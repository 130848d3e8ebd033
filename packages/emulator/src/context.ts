/** What every route and hook shares. */
import type { CallLog } from './calls.js';
import type { EmulatorClock } from './clock.js';
import type { SignInLimits } from './console/auth/sign-in-limits.js';
import type { Db } from './db/schema.js';
import type { FaultStore } from './faults.js';
import type { EmulatorLimits } from './limits.js';
import type { EmulatorLogger } from './logger.js';
import type { SmtpOptions } from './mail/send-mail.js';

export interface EmulatorContext {
  db: Db;
  clock: EmulatorClock;
  logger: EmulatorLogger;
  faults: FaultStore;
  calls: CallLog;
  /** Inactivity after which a multipart upload session expires, in milliseconds. */
  uploadSessionTtlMs: number;
  /** Caps on open uploads, faults, API keys, console sessions and events (`limits.ts`). */
  limits: EmulatorLimits;
  /** The SMTP server mail goes to (`smtp` option / `--smtp URL`); undefined: mail cannot be sent. */
  smtp: SmtpOptions | undefined;
  /** Evaluates event subscriptions (on its timer, and when the clock is moved). */
  subscriptions: SubscriptionControls;
  /** Failed console sign-ins by email and address, and the locks they started. */
  signInLimits: SignInLimits;
}

/** What routes use of the subscription runner (`subscriptions/subscription-runner.ts`). */
export interface SubscriptionControls {
  /** Evaluates every due subscription; resolves once their alerts are delivered. */
  tick(): Promise<unknown>;
  /** Evaluates one subscription now; undefined when it does not exist. */
  evaluateNow(id: string): Promise<object | undefined>;
}
