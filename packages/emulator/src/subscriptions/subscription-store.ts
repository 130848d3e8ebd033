/** Stored subscriptions and the allowlist (tables in db/events-schema.ts). */
import type { Db } from '../db/schema.js';
import type { Allowlist, Subscription } from './subscription-schema.js';

/** A subscription with its evaluation cursor. */
export interface StoredSubscription {
  record: Subscription;
  lastEvaluatedMs: number;
  lastEventSeq: number;
}

interface Row {
  record: string;
  last_evaluated_ms: number;
  last_event_seq: number;
}

const toStored = (r: Row): StoredSubscription => ({
  record: JSON.parse(r.record) as Subscription,
  lastEvaluatedMs: r.last_evaluated_ms,
  lastEventSeq: r.last_event_seq,
});

/** The newest event's sequence number (0 when none). */
export function maxEventSeq(db: Db): number {
  return db.prepare<[], { m: number | null }>('SELECT max(seq) AS m FROM events').get()?.m ?? 0;
}

/** Every subscription, oldest first. */
export function listSubscriptions(db: Db): StoredSubscription[] {
  return db
    .prepare<[], Row>('SELECT record, last_evaluated_ms, last_event_seq FROM subscriptions ORDER BY seq')
    .all()
    .map(toStored);
}

/** Subscription `id`, or undefined. */
export function getSubscription(db: Db, id: string): StoredSubscription | undefined {
  const row = db
    .prepare<[string], Row>(
      'SELECT record, last_evaluated_ms, last_event_seq FROM subscriptions WHERE id = ?',
    )
    .get(id);
  return row && toStored(row);
}

/** How many subscriptions exist. */
export function countSubscriptions(db: Db): number {
  return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM subscriptions').get()?.n ?? 0;
}

/** Stores a new subscription; only events stored after now count for it. */
export function insertSubscription(db: Db, record: Subscription, nowMs: number): void {
  db.prepare(
    'INSERT INTO subscriptions (id, record, last_evaluated_ms, last_event_seq) VALUES (?, ?, ?, ?)',
  ).run(record.id, JSON.stringify(record), nowMs, maxEventSeq(db));
}

/** Replaces a subscription's record (its cursor stays). */
export function updateSubscriptionRecord(db: Db, record: Subscription): boolean {
  return (
    db.prepare('UPDATE subscriptions SET record = ? WHERE id = ?').run(JSON.stringify(record), record.id)
      .changes > 0
  );
}

/**
 * Moves a subscription's cursor, only if nobody moved it since `from` was read (two emulators on one
 * database file must not both send the same alert).
 */
export function claimEvaluation(
  db: Db,
  id: string,
  from: { lastEvaluatedMs: number; lastEventSeq: number },
  to: { lastEvaluatedMs: number; lastEventSeq: number },
): boolean {
  return (
    db
      .prepare(
        `UPDATE subscriptions SET last_evaluated_ms = ?, last_event_seq = ?
         WHERE id = ? AND last_evaluated_ms = ? AND last_event_seq = ?`,
      )
      .run(to.lastEvaluatedMs, to.lastEventSeq, id, from.lastEvaluatedMs, from.lastEventSeq).changes > 0
  );
}

/** Deletes subscription `id`; false when none. */
export function deleteSubscription(db: Db, id: string): boolean {
  return db.prepare('DELETE FROM subscriptions WHERE id = ?').run(id).changes > 0;
}

/** The allowlist. */
export function readAllowlist(db: Db): Allowlist {
  const rows = db
    .prepare<[], { kind: string; value: string }>('SELECT kind, value FROM allowlist ORDER BY value')
    .all();
  return {
    email_domains: rows.filter((r) => r.kind === 'email_domain').map((r) => r.value),
    webhook_hosts: rows.filter((r) => r.kind === 'webhook_host').map((r) => r.value),
  };
}

/** Replaces the allowlist. */
export function writeAllowlist(db: Db, list: Allowlist): void {
  db.transaction(() => {
    db.prepare('DELETE FROM allowlist').run();
    const insert = db.prepare('INSERT OR IGNORE INTO allowlist (kind, value) VALUES (?, ?)');
    for (const d of list.email_domains) insert.run('email_domain', d);
    for (const h of list.webhook_hosts) insert.run('webhook_host', h);
  })();
}

/** Whether the domain of `address` is allowed. */
export function emailAllowed(list: Allowlist, address: string): boolean {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  return list.email_domains.some((d) => (d.startsWith('*.') ? domain.endsWith(d.slice(1)) : domain === d));
}

/** Whether a webhook URL's host (and port) is allowed. */
export function webhookAllowed(list: Allowlist, url: string): boolean {
  const u = new URL(url);
  const port = u.port === '' ? (u.protocol === 'https:' ? '443' : '80') : u.port;
  const host = u.hostname.toLowerCase();
  return list.webhook_hosts.some((h) => h === host || h === `${host}:${port}`);
}
