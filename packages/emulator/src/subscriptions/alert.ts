/**
 * What one alert says, and the body each destination receives.
 *
 * Decisions the spec leaves open: `triggered_at` is the time of the first matching event of the
 * period and `evaluated_at` the evaluation time, both in Unix seconds; `host` is the emulator's
 * host; `dashboard_url` points at the subscription under `/_emulator`. The chat body is
 * `{ text }`, the team-chat body a message card `{ @type, @context, summary, title, text }`.
 */
import type { Db } from '../db/schema.js';
import { EVALUATION_PERIOD_MINUTES, type Subscription } from './subscription-schema.js';

/** The events of one evaluation that matched a subscription. */
export interface AlertSummary {
  count: number;
  severities: string[];
  categories: string[];
  eventTypes: string[];
  /** Time of the first matching event, in milliseconds. */
  triggeredAtMs: number;
  evaluatedAtMs: number;
}

const split = (s: string | null): string[] =>
  s === null || s === '' ? [] : [...new Set(s.split(','))].sort();

/** Aggregates the events with `afterSeq < seq <= uptoSeq` that match `sub`'s filter (bounded: SQL aggregates). */
export function summarize(
  db: Db,
  sub: Subscription,
  range: { afterSeq: number; uptoSeq: number; evaluatedAtMs: number },
): AlertSummary | undefined {
  const where: string[] = ['seq > ?', 'seq <= ?'];
  const params: (string | number)[] = [range.afterSeq, range.uptoSeq];
  const inList = (column: string, values: readonly string[]): void => {
    if (values.length === 0) return;
    where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  inList('event_type', sub.filter.event_types);
  inList('severity', sub.filter.severities);
  inList('category', sub.filter.categories);
  const row = db
    .prepare<
      unknown[],
      { n: number; sev: string | null; cat: string | null; types: string | null; first: string | null }
    >(
      `SELECT count(*) AS n, group_concat(DISTINCT severity) AS sev, group_concat(DISTINCT category) AS cat,
              group_concat(DISTINCT event_type) AS types, min(timestamp) AS first
       FROM events WHERE ${where.join(' AND ')}`,
    )
    .get(...params);
  if (!row || row.n === 0) return undefined;
  return {
    count: row.n,
    severities: split(row.sev),
    categories: split(row.cat),
    eventTypes: split(row.types),
    triggeredAtMs: Date.parse(row.first ?? '') || range.evaluatedAtMs,
    evaluatedAtMs: range.evaluatedAtMs,
  };
}

const seconds = (ms: number): number => Math.floor(ms / 1000);
const any = (values: readonly string[]): string => (values.length === 0 ? 'any' : values.join(', '));

/** The filter, in words. */
export function criteriaText(sub: Subscription): string {
  return `event types: ${any(sub.filter.event_types)}; severities: ${any(sub.filter.severities)}; categories: ${any(sub.filter.categories)}`;
}

/** The lines every human-readable alert carries. */
export function alertLines(sub: Subscription, s: AlertSummary): string[] {
  return [
    `Subscription: ${sub.name}`,
    ...(sub.description === '' ? [] : [`Description: ${sub.description}`]),
    `Number of events: ${s.count}`,
    `Severities: ${s.severities.join(', ')}`,
    `Categories: ${s.categories.join(', ')}`,
    `Event types: ${s.eventTypes.join(', ')}`,
    `Triggered at: ${new Date(s.triggeredAtMs).toISOString()}`,
    `Evaluated at: ${new Date(s.evaluatedAtMs).toISOString()} (every ${EVALUATION_PERIOD_MINUTES} minutes)`,
  ];
}

/** The custom webhook body: exactly the spec's twelve fields. */
export function customWebhookBody(sub: Subscription, s: AlertSummary, baseUrl: string) {
  return {
    subscription_id: sub.id,
    subscription_name: sub.name,
    subscription_description: sub.description,
    number_of_events: s.count,
    severities: s.severities,
    categories: s.categories,
    event_types: s.eventTypes,
    triggered_at: seconds(s.triggeredAtMs),
    evaluated_at: seconds(s.evaluatedAtMs),
    evaluation_period: EVALUATION_PERIOD_MINUTES,
    host: new URL(baseUrl).host,
    dashboard_url: `${baseUrl}/_emulator/subscriptions/${encodeURIComponent(sub.id)}`,
  };
}

/** The ticketing incident body. */
export function ticketBody(
  sub: Subscription & { destination: { type: 'TICKETING' } },
  s: AlertSummary,
): Record<string, string> {
  const d = sub.destination;
  return {
    short_description: `Event Subscription Alert: ${sub.name}`,
    description: [...alertLines(sub, s), `Criteria: ${criteriaText(sub)}`].join('\n'),
    urgency: d.urgency,
    category: d.category,
    subcategory: d.subcategory,
    ...(d.assignment_group === undefined ? {} : { assignment_group: d.assignment_group }),
    ...(d.configuration_item === undefined ? {} : { configuration_item: d.configuration_item }),
  };
}

/** The chat webhook body. */
export function chatBody(sub: Subscription, s: AlertSummary): { text: string } {
  return { text: [`Event Subscription Alert: ${sub.name}`, ...alertLines(sub, s)].join('\n') };
}

/** The team-chat webhook body (a message card). */
export function teamChatBody(sub: Subscription, s: AlertSummary) {
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: `Event Subscription Alert: ${sub.name}`,
    title: `Event Subscription Alert: ${sub.name}`,
    text: alertLines(sub, s).join('\n\n'),
  };
}

/** The e-mail: subject and text, stating the criteria. */
export function emailMessage(sub: Subscription, s: AlertSummary): { subject: string; text: string } {
  return {
    subject: `Event Subscription Alert: ${sub.name}`,
    text: [...alertLines(sub, s), `Criteria: ${criteriaText(sub)}`].join('\n') + '\n',
  };
}
