/**
 * `/_emulator/subscriptions` (admin): event subscriptions, which the spec manages in its
 * administration interface only. CRUD, `POST /_emulator/subscriptions/{id}/evaluate` to evaluate one
 * now, and `/_emulator/allowlist`, where alert destinations must be listed.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import {
  allowlistSchema,
  EVALUATION_PERIOD_MINUTES,
  MAX_SUBSCRIPTIONS,
  subscriptionInputSchema,
  type Subscription,
  type SubscriptionInput,
} from '../subscriptions/subscription-schema.js';
import {
  countSubscriptions,
  deleteSubscription,
  getSubscription,
  insertSubscription,
  listSubscriptions,
  readAllowlist,
  updateSubscriptionRecord,
  writeAllowlist,
} from '../subscriptions/subscription-store.js';

type IdParams = { Params: { id: string } };

function checkMail(ctx: EmulatorContext, input: SubscriptionInput): void {
  if (input.destination.type === 'EMAIL' && ctx.smtp === undefined)
    throw badField(
      'destination.type',
      'EMAIL needs an SMTP server: start the emulator with --smtp smtp://HOST:PORT (option smtp)',
    );
}

function requireSubscription(ctx: EmulatorContext, id: string): Subscription {
  const sub = getSubscription(ctx.db, id);
  if (!sub) throw notFound('subscription', id);
  return sub.record;
}

/** Registers the subscription and allowlist controls. */
export function registerSubscriptionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/_emulator/subscriptions', allow(ADMIN), (req) => {
    const input = parseBody(subscriptionInputSchema, req.body);
    checkMail(ctx, input);
    const now = ctx.clock.iso();
    const record: Subscription = {
      id: randomUUID(),
      ...input,
      evaluation_period: EVALUATION_PERIOD_MINUTES,
      created_at: now,
      updated_at: now,
      last_evaluated_at: now,
      last_outcome: null,
    };
    ctx.db.transaction(() => {
      if (countSubscriptions(ctx.db) >= MAX_SUBSCRIPTIONS)
        throw badField('body', `at most ${MAX_SUBSCRIPTIONS} subscriptions exist at once: delete one first`);
      insertSubscription(ctx.db, record, ctx.clock.nowMs());
    })();
    return { value: record };
  });

  app.get('/_emulator/subscriptions', allow(ADMIN), () => ({
    values: listSubscriptions(ctx.db).map((s) => s.record),
  }));

  app.get<IdParams>('/_emulator/subscriptions/:id', allow(ADMIN), (req) => ({
    value: requireSubscription(ctx, req.params.id),
  }));

  app.put<IdParams>('/_emulator/subscriptions/:id', allow(ADMIN), (req) => {
    const current = requireSubscription(ctx, req.params.id);
    const input = parseBody(subscriptionInputSchema, req.body);
    checkMail(ctx, input);
    const record: Subscription = { ...current, ...input, updated_at: ctx.clock.iso() };
    if (!updateSubscriptionRecord(ctx.db, record)) throw notFound('subscription', req.params.id);
    return { value: record };
  });

  app.delete<IdParams>('/_emulator/subscriptions/:id', allow(ADMIN), (req) => {
    if (!deleteSubscription(ctx.db, req.params.id)) throw notFound('subscription', req.params.id);
    return {};
  });

  app.post<IdParams>('/_emulator/subscriptions/:id/evaluate', allow(ADMIN), async (req) => {
    const evaluation = await ctx.subscriptions.evaluateNow(req.params.id);
    if (!evaluation) throw notFound('subscription', req.params.id);
    return { value: evaluation };
  });

  app.get('/_emulator/allowlist', allow(ADMIN), () => readAllowlist(ctx.db));
  app.put('/_emulator/allowlist', allow(ADMIN), (req) => {
    writeAllowlist(ctx.db, parseBody(allowlistSchema, req.body));
    return readAllowlist(ctx.db);
  });
}
