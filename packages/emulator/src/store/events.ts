/**
 * Platform events, stored for the events API (a later issue) and the `/_emulator/events` view.
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

/** Stores an event; `timestamp` also serves as its persistence time. */
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
