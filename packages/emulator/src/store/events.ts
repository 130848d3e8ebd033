/**
 * Platform events, stored for the events API (`events/event-pages.ts`) and the `/_emulator/events`
 * view.
 *
 * The store keeps at most the database's events cap (`limits.maxEvents`, stored in `meta` by
 * `startEmulator`): recording an event deletes those stored more than that many events before it.
 * Events are a side effect of every push, sign-in and key change, so refusing one past a cap would
 * make those calls fail; dropping the oldest is what a log with a size limit does, and the events
 * API drops events anyway once past its retention. The cap lives in the database, not in this
 * process, because a bulk push records its events on another connection (`db/worker-connection.ts`)
 * and several processes may share one database file: each of them prunes to the same cap.
 */
import { randomUUID } from 'node:crypto';
import type { PushDb } from '../db/push-db.js';
import type { Db } from '../db/schema.js';

export type EventCategory = 'SYSTEM' | 'INTEGRATIONS' | 'RULE' | 'TAG' | 'NOTIFICATION';
export type EventSeverity = 'INFO' | 'WARNING' | 'ERROR';

/** The `error` object of an event. */
export interface EventError {
  message: string;
  metadata: Record<string, string>;
  reason: string;
  resolution: string;
  request_id: string;
}

/** An event as the service reports it. */
export interface EventRecord {
  id: string;
  timestamp: string;
  category: EventCategory;
  severity: EventSeverity;
  name: string;
  message: string;
  provider_id: string | null;
  entity: string | null;
  entity_id: string | null;
  entity_name: string | null;
  event_type: string;
  error: EventError | null;
}

export type EventInput = Omit<EventRecord, 'id'>;

interface EventRow extends Omit<EventRecord, 'error'> {
  error: string | null;
}

/** The `meta` key of the events cap. */
const MAX_EVENTS_KEY = 'max_events';

/**
 * Deletes the events stored more than the cap before the newest one: those whose `seq` (the storage
 * order, never reused: retention keeps the newest row) is at least the cap below the newest. No
 * cap stored, nothing deleted.
 */
const PRUNE_SQL = `DELETE FROM events WHERE seq <= (SELECT max(seq) FROM events)
  - (SELECT CAST(value AS INTEGER) FROM meta WHERE key = '${MAX_EVENTS_KEY}')`;

/** Sets the events cap of the database and deletes the oldest events past it at once. */
export function setMaxEvents(db: Db, max: number): void {
  db.transaction(() => {
    db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(MAX_EVENTS_KEY, String(max));
    db.prepare(PRUNE_SQL).run();
  })();
}

/**
 * Stores an event; `timestamp` also serves as its persistence time. The oldest events past the cap
 * go (see the header).
 */
export function recordEvent(db: PushDb, event: EventInput): EventRecord {
  const record: EventRecord = { id: randomUUID(), ...event };
  db.prepare(
    `INSERT INTO events (id, timestamp, persisted_at, category, severity, name, message, provider_id, entity, entity_id, entity_name, event_type, error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    record.id,
    record.timestamp,
    record.timestamp,
    record.category,
    record.severity,
    record.name,
    record.message,
    record.provider_id,
    record.entity,
    record.entity_id,
    record.entity_name,
    record.event_type,
    record.error === null ? null : JSON.stringify(record.error),
  );
  db.prepare(PRUNE_SQL).run();
  return record;
}

/** Stored events in the order they were stored, optionally of one type. */
export function listEvents(
  db: Db,
  options: { eventType?: string | undefined; limit: number },
): EventRecord[] {
  const rows =
    options.eventType === undefined
      ? db
          .prepare<[number], EventRow>(
            'SELECT id, timestamp, category, severity, name, message, provider_id, entity, entity_id, entity_name, event_type, error FROM events ORDER BY seq LIMIT ?',
          )
          .all(options.limit)
      : db
          .prepare<[string, number], EventRow>(
            'SELECT id, timestamp, category, severity, name, message, provider_id, entity, entity_id, entity_name, event_type, error FROM events WHERE event_type = ? ORDER BY seq LIMIT ?',
          )
          .all(options.eventType, options.limit);
  return rows.map((r) => ({ ...r, error: r.error === null ? null : (JSON.parse(r.error) as EventError) }));
}
