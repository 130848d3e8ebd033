/** What every route and hook shares. */
import type { CallLog } from './calls.js';
import type { EmulatorClock } from './clock.js';
import type { Db } from './db/schema.js';
import type { FaultStore } from './faults.js';
import type { EmulatorLogger } from './logger.js';
import type { SmtpOptions } from './mail/send-mail.js';
import type { SubscriptionRunner } from './subscriptions/subscription-runner.js';

export interface EmulatorContext {
  db: Db;
  clock: EmulatorClock;
  logger: EmulatorLogger;
  faults: FaultStore;
  calls: CallLog;
  /** Inactivity after which a multipart upload session expires, in milliseconds. */
  uploadSessionTtlMs: number;
  /** The SMTP server mail goes to (`smtp` option / `--smtp URL`); undefined: mail cannot be sent. */
  smtp: SmtpOptions | undefined;
  /** Evaluates event subscriptions (on its timer, and when the clock is moved). */
  subscriptions: SubscriptionRunner;
}
