/**
 * Event subscriptions as `/_emulator/subscriptions` takes them (the spec shows no API): a name, a
 * description, a filter on event type, severity and category, and one destination. The zod schemas
 * are the only definition of these shapes; every field is bounded.
 */
import { EVENT_CATEGORIES, EVENT_SEVERITIES } from '@oaakit/core';
import * as z from 'zod';

/** Evaluation period of every subscription, in minutes (the spec's 15). */
export const EVALUATION_PERIOD_MINUTES = 15;
/** Most subscriptions the emulator keeps. */
export const MAX_SUBSCRIPTIONS = 100;
/** Longest subscription name, in characters. */
export const MAX_NAME_LENGTH = 256;
/** Longest description, in characters. */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Most entries in each filter list. */
export const MAX_FILTER_VALUES = 100;
/** Most e-mail recipients of one subscription. */
export const MAX_RECIPIENTS = 50;
/** Longest destination URL. */
export const MAX_URL_LENGTH = 2048;

const text = (max: number) => z.string().trim().min(1).max(max);
const webhookUrl = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine(
    (u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
    'must be an http:// or https:// URL',
  );

const filterSchema = z.strictObject({
  event_types: z
    .array(z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be an event type such as OAA_PUSH'))
    .max(MAX_FILTER_VALUES)
    .default([]),
  severities: z.array(z.enum(EVENT_SEVERITIES)).max(MAX_FILTER_VALUES).default([]),
  categories: z.array(z.enum(EVENT_CATEGORIES)).max(MAX_FILTER_VALUES).default([]),
});

/** One destination per subscription. */
export const destinationSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('EMAIL'),
    recipients: z.array(z.email().max(254)).min(1).max(MAX_RECIPIENTS),
  }),
  z.strictObject({ type: z.literal('CHAT_WEBHOOK'), url: webhookUrl }),
  z.strictObject({ type: z.literal('TEAM_CHAT_WEBHOOK'), url: webhookUrl }),
  z.strictObject({
    type: z.literal('TICKETING'),
    url: webhookUrl,
    urgency: text(64),
    category: text(256),
    subcategory: text(256),
    assignment_group: text(256).optional(),
    configuration_item: text(256).optional(),
  }),
  z.strictObject({ type: z.literal('CUSTOM_WEBHOOK'), url: webhookUrl }),
]);
export type Destination = z.infer<typeof destinationSchema>;

/** Body of POST and PUT `/_emulator/subscriptions`. */
export const subscriptionInputSchema = z.strictObject({
  name: text(MAX_NAME_LENGTH),
  description: z.string().max(MAX_DESCRIPTION_LENGTH).default(''),
  filter: filterSchema.default({ event_types: [], severities: [], categories: [] }),
  destination: destinationSchema,
});
export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;
export type SubscriptionFilter = SubscriptionInput['filter'];

/** What the last evaluation did. */
export type DeliveryOutcome = 'NO_EVENTS' | 'SENT' | 'NOT_IN_ALLOWLIST' | 'FAILED';

/** A stored subscription. */
export interface Subscription extends SubscriptionInput {
  id: string;
  evaluation_period: number;
  created_at: string;
  updated_at: string;
  last_evaluated_at: string;
  last_outcome: DeliveryOutcome | null;
}

/** Body of PUT `/_emulator/allowlist`: where alerts may go. */
export const allowlistSchema = z.strictObject({
  /** E-mail domains: `example.com` (exact) or `*.example.com` (any subdomain). */
  email_domains: z
    .array(
      z
        .string()
        .toLowerCase()
        .regex(/^(\*\.)?[a-z0-9.-]{1,253}$/, 'must be a domain or *.domain'),
    )
    .max(1000)
    .default([]),
  /** Webhook hosts: `host` (any port) or `host:port`. */
  webhook_hosts: z
    .array(
      z
        .string()
        .toLowerCase()
        .regex(/^[a-z0-9.\-[\]:]{1,260}$/, 'must be host or host:port'),
    )
    .max(1000)
    .default([]),
});
export type Allowlist = z.infer<typeof allowlistSchema>;
