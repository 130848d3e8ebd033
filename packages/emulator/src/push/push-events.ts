/** The OAA_PUSH event of a push, in the spec's shape (WARNING with `OAA_PUSH_WARNINGS` when warned). */
import type { Violation } from '@oaakit/core';
import type { Db } from '../db/schema.js';
import { recordEvent } from '../store/events.js';
import type { PushTarget } from './target.js';

/** Most warning or error texts copied into one event's `error.metadata`. */
export const MAX_EVENT_METADATA = 1000;

function metadataOf(texts: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  texts.slice(0, MAX_EVENT_METADATA).forEach((t, i) => (out[String(i)] = t));
  if (texts.length > MAX_EVENT_METADATA)
    out[String(MAX_EVENT_METADATA)] = `... and ${texts.length - MAX_EVENT_METADATA} more`;
  return out;
}

/** Records the event of a push that was parsed; `warnings` are the texts returned to the caller. */
export function recordPushEvent(db: Db, target: PushTarget, at: string, warnings: readonly string[]): void {
  const { provider, dataSource } = target;
  const warned = warnings.length > 0;
  recordEvent(db, {
    timestamp: at,
    category: 'INTEGRATIONS',
    severity: warned ? 'WARNING' : 'INFO',
    name: 'OAA Push',
    message: warned
      ? `Payload for data source ${dataSource.name} was parsed with ${warnings.length} warning(s)`
      : `Payload for data source ${dataSource.name} was parsed`,
    provider_id: provider.id,
    entity: 'DATASOURCE',
    entity_id: dataSource.id,
    entity_name: dataSource.name,
    event_type: 'OAA_PUSH',
    error: warned
      ? {
          message: 'The push completed with warnings',
          metadata: metadataOf(warnings),
          reason: 'OAA_PUSH_WARNINGS',
          resolution: 'Review the warnings and correct the payload if needed',
          request_id: target.requestId,
        }
      : null,
  });
}

/** Records the event of a push whose payload was rejected. */
export function recordPushFailure(
  db: Db,
  target: PushTarget,
  at: string,
  violations: readonly Violation[],
): void {
  const { provider, dataSource } = target;
  recordEvent(db, {
    timestamp: at,
    category: 'INTEGRATIONS',
    severity: 'ERROR',
    name: 'OAA Push',
    message: `Payload for data source ${dataSource.name} was rejected`,
    provider_id: provider.id,
    entity: 'DATASOURCE',
    entity_id: dataSource.id,
    entity_name: dataSource.name,
    event_type: 'OAA_PUSH',
    error: {
      message: 'The payload was rejected',
      metadata: metadataOf(violations.map((v) => (v.field ? `${v.field}: ${v.description}` : v.description))),
      reason: 'INVALID_ARGUMENTS',
      resolution: 'Correct the payload and push again',
      request_id: target.requestId,
    },
  });
}
