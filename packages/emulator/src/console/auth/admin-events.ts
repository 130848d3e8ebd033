/**
 * Events for changes made in the administration interface the emulator stands in for: users signing
 * in and out, users and OAuth2 apps created and changed. Recorded with the events store's
 * `recordEvent`, category SYSTEM, with the spec's event kinds (USER_*, and API_KEY_* for OAuth2
 * apps, which the service manages under API keys).
 */
import type { Db } from '../../db/schema.js';
import { recordEvent, type EventRecord } from '../../store/events.js';

/** What changed, and on what. */
export interface AdminEvent {
  at: string;
  eventType: string;
  /** Display title, e.g. `User created`. */
  name: string;
  message: string;
  /** Id of what changed (a user's sub, an app's client id). */
  entityId: string;
  /** Its display name (an email, a client name). */
  entityName: string;
}

/** Records `event` in the events store. */
export function recordAdminEvent(db: Db, event: AdminEvent): EventRecord {
  return recordEvent(db, {
    timestamp: event.at,
    category: 'SYSTEM',
    severity: 'INFO',
    name: event.name,
    message: event.message,
    provider_id: null,
    entity: null,
    entity_id: event.entityId,
    entity_name: event.entityName,
    event_type: event.eventType,
    error: null,
  });
}
