/**
 * The events of a push, in the spec's shape: OAA_PUSH (WARNING with `OAA_PUSH_WARNINGS` when warned),
 * then DATASOURCE_PARSED, or DATASOURCE_PARSED_NO_CHANGE when the stored payload's bytes (gzip) are
 * those of the data source's previous accepted push (SHA-256 kept in `push_digests`).
 */
import type { Violation } from '@oaakit/core';
import type { PushDb } from '../db/push-db.js';
import type { Db } from '../db/schema.js';
import { setDataSourceStatus } from '../store/data-sources.js';
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

/** Records DATASOURCE_PARSED or DATASOURCE_PARSED_NO_CHANGE, comparing with the previous push. */
function recordParseEvent(db: PushDb, target: PushTarget, at: string, digest: string): void {
  const { provider, dataSource } = target;
  const previous = db
    .prepare<{ digest: string }>('SELECT digest FROM push_digests WHERE data_source_id = ?')
    .get(dataSource.id);
  db.prepare(
    'INSERT INTO push_digests (data_source_id, digest) VALUES (?, ?) ON CONFLICT (data_source_id) DO UPDATE SET digest = excluded.digest',
  ).run(dataSource.id, digest);
  const same = previous?.digest === digest;
  recordEvent(db, {
    timestamp: at,
    category: 'INTEGRATIONS',
    severity: 'INFO',
    name: same ? 'Data source parsed, no change' : 'Data source parsed',
    message: same
      ? `Data source ${dataSource.name} was parsed; its data did not change since the previous push`
      : `Data source ${dataSource.name} was parsed`,
    provider_id: provider.id,
    entity: 'DATASOURCE',
    entity_id: dataSource.id,
    entity_name: dataSource.name,
    event_type: same ? 'DATASOURCE_PARSED_NO_CHANGE' : 'DATASOURCE_PARSED',
    error: null,
  });
}

/**
 * Records the events of a push that was parsed; `warnings` are the texts returned to the caller,
 * `storedDigest` the SHA-256 of the payload as stored (gzip, `storedDigest` of submission.ts), which
 * decides between PARSED and PARSED_NO_CHANGE.
 */
export function recordPushEvent(
  db: PushDb,
  target: PushTarget,
  at: string,
  warnings: readonly string[],
  storedDigest?: string,
): void {
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
  if (storedDigest !== undefined) recordParseEvent(db, target, at, storedDigest);
  recordInjectedParseFailure(db, target, at);
}

/**
 * A parse failure injected through `/_emulator/parse_failures`: the push was answered 200, and the
 * service then reports it failed (data source FAILED, an OAA_PUSH event of severity ERROR), as a
 * service that parses after answering can.
 */
function recordInjectedParseFailure(db: PushDb, target: PushTarget, at: string): void {
  const { provider, dataSource } = target;
  const row = db
    .prepare<{ message: string }>('DELETE FROM parse_failures WHERE data_source_id = ? RETURNING message')
    .get(dataSource.id);
  if (row === undefined) return;
  setDataSourceStatus(db, dataSource.id, 'FAILED', at);
  recordEvent(db, {
    timestamp: at,
    category: 'INTEGRATIONS',
    severity: 'ERROR',
    name: 'OAA Push',
    message: `Payload for data source ${dataSource.name} failed to parse`,
    provider_id: provider.id,
    entity: 'DATASOURCE',
    entity_id: dataSource.id,
    entity_name: dataSource.name,
    event_type: 'OAA_PUSH',
    error: {
      message: row.message,
      metadata: { '0': row.message },
      reason: 'OAA_PARSE_FAILED',
      resolution: 'Correct the payload and push again',
      request_id: target.requestId,
    },
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
