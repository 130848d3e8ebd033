/**
 * Evaluates subscriptions on the emulator clock: a subscription is due 15 minutes (emulator time)
 * after its last evaluation. A real-time timer looks every second, and moving the clock
 * (`/_emulator/clock`) evaluates at once, so a test advances the clock instead of waiting. However
 * far the clock jumps, a due subscription is evaluated once, over every event stored since its last
 * evaluation ("since" by the store's sequence, so events with any timestamp count exactly once).
 * Ticks run one after another, never overlapping; within a tick, deliveries run side by side.
 */
import PQueue from 'p-queue';
import type { EmulatorContext } from '../context.js';
import { summarize } from './alert.js';
import { deliverAlert } from './deliver.js';
import { EVALUATION_PERIOD_MINUTES, type DeliveryOutcome } from './subscription-schema.js';
import {
  claimEvaluation,
  getSubscription,
  listSubscriptions,
  maxEventSeq,
  updateSubscriptionRecord,
  type StoredSubscription,
} from './subscription-store.js';

/** Evaluation period in milliseconds. */
export const EVALUATION_PERIOD_MS = EVALUATION_PERIOD_MINUTES * 60_000;
/** Default bound on one delivery. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/** The result of evaluating one subscription. */
export interface Evaluation {
  subscription_id: string;
  evaluated_at: string;
  number_of_events: number;
  outcome: DeliveryOutcome;
}

/** Runs subscription evaluations for one emulator. */
export class SubscriptionRunner {
  /** Ticks and evaluations on demand, one at a time. */
  private readonly serial = new PQueue({ concurrency: 1 });
  private timer: NodeJS.Timeout | undefined;
  /** The emulator's base URL, set once it listens. */
  baseUrl = 'http://127.0.0.1';

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly deliveryTimeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS,
  ) {}

  /** Starts the real-time timer. */
  start(): void {
    this.timer ??= setInterval(() => void this.tick().catch(() => undefined), 1000);
    this.timer.unref();
  }

  /** Stops the timer and waits for a running evaluation. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.serial.onIdle();
  }

  private queue<T>(job: () => Promise<T>): Promise<T> {
    return this.serial.add(job, { throwOnTimeout: true });
  }

  /** Evaluates every due subscription; resolves when their alerts are delivered. */
  tick(): Promise<Evaluation[]> {
    return this.queue(async () => {
      const now = this.ctx.clock.nowMs();
      const due = listSubscriptions(this.ctx.db).filter(
        (s) => now - s.lastEvaluatedMs >= EVALUATION_PERIOD_MS,
      );
      // Each evaluation claims its events synchronously when called; the deliveries then run side by
      // side, so a tick takes at most about one delivery timeout, however many subscriptions are due.
      const done = await Promise.all(due.map((sub) => this.evaluate(sub, now)));
      return done.filter((e): e is Evaluation => e !== undefined);
    });
  }

  /** Evaluates subscription `id` now, due or not; undefined when it does not exist. */
  evaluateNow(id: string): Promise<Evaluation | undefined> {
    return this.queue(async () => {
      const sub = getSubscription(this.ctx.db, id);
      return sub && this.evaluate(sub, this.ctx.clock.nowMs());
    });
  }

  private async evaluate(sub: StoredSubscription, now: number): Promise<Evaluation | undefined> {
    const { db } = this.ctx;
    const upto = maxEventSeq(db);
    const summary = summarize(db, sub.record, {
      afterSeq: sub.lastEventSeq,
      uptoSeq: upto,
      evaluatedAtMs: now,
    });
    // Another emulator on the same database file may have evaluated it meanwhile.
    if (!claimEvaluation(db, sub.record.id, sub, { lastEvaluatedMs: now, lastEventSeq: upto }))
      return undefined;
    const outcome = summary
      ? await deliverAlert(this.ctx, sub.record, summary, {
          baseUrl: this.baseUrl,
          timeoutMs: this.deliveryTimeoutMs,
        })
      : 'NO_EVENTS';
    const current = getSubscription(db, sub.record.id);
    const evaluatedAt = new Date(now).toISOString();
    if (current)
      updateSubscriptionRecord(db, {
        ...current.record,
        last_evaluated_at: evaluatedAt,
        last_outcome: outcome,
      });
    return {
      subscription_id: sub.record.id,
      evaluated_at: evaluatedAt,
      number_of_events: summary?.count ?? 0,
      outcome,
    };
  }
}
