/**
 * Reading stored events: the filtered list (`GET /api/preview/events`) and the continuous export
 * (`GET /api/v1/events/export`), with the spec's page sizes, the 32-day start-time limit and the
 * 90-day retention, all on the emulator clock.
 *
 * Both walk events in `seq` order, the store's insertion sequence, never by time: the emulator clock
 * can be set back and many events share a millisecond, so a time cursor would skip or repeat events.
 * SQLite serialises writers, so a reader never sees seq N+1 before seq N is committed, and a cursor
 * "after seq N" neither skips nor repeats. Retention keeps the newest row, so seq (SQLite's rowid)
 * never goes back to a value already handed out.
 */
import type { Db } from '../db/schema.js';
import { badField } from '../errors.js';
import { PageTokens, queryFingerprint } from '../query/page-token.js';
import type { EventError, EventRecord } from '../store/events.js';
import { compileEventFilter, normalizeTime } from './event-filter.js';

/** Events page size when none is given. */
export const DEFAULT_EVENTS_PAGE_SIZE = 1000;
/** Largest events page size. */
export const MAX_EVENTS_PAGE_SIZE = 10_000;
/** Events older than this (emulator time) are gone. */
export const EVENT_RETENTION_MS = 90 * 24 * 3600 * 1000;
/** The oldest start time a request may ask for. */
export const MAX_START_AGE_MS = 32 * 24 * 3600 * 1000;

const COLUMNS =
  'seq, id, timestamp, category, severity, name, message, provider_id, entity, entity_id, entity_name, event_type, error';

interface Row extends Omit<EventRecord, 'error'> {
  seq: number;
  error: string | null;
}

function toRecord(row: Row): EventRecord {
  const { seq: _seq, error, ...rest } = row;
  return { ...rest, error: error === null ? null : (JSON.parse(error) as EventError) };
}

/** Reads `page_size` (events limits). */
export function parseEventsPageSize(value: unknown): number {
  if (value === undefined || value === '') return DEFAULT_EVENTS_PAGE_SIZE;
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_EVENTS_PAGE_SIZE)
    throw badField('page_size', `must be an integer from 1 to ${MAX_EVENTS_PAGE_SIZE}`);
  return n;
}

/** Refuses a start time more than 32 days before `nowMs`, naming the earliest allowed one. */
export function checkStartTime(start: string | undefined, nowMs: number): void {
  if (start === undefined) return;
  const earliest = nowMs - MAX_START_AGE_MS;
  if (Date.parse(start) < earliest)
    throw badField(
      'filter.start_time',
      `must be no more than 32 days in the past: the earliest allowed start time is ${new Date(earliest).toISOString()}`,
    );
}

/** Deletes events past retention, keeping the newest row so the sequence never restarts. */
export function purgeExpiredEvents(db: Db, nowMs: number): void {
  const cutoff = new Date(nowMs - EVENT_RETENTION_MS).toISOString();
  db.prepare('DELETE FROM events WHERE timestamp < ? AND seq < (SELECT max(seq) FROM events)').run(cutoff);
}

/** The list's position: after event `seq`, for one filter. */
const listTokens = new PageTokens(
  { seq: 'count' },
  'was issued for a different filter: send the same filter with every page',
);
/**
 * The export's position: after event `a`, of those stored after `h` or persisted since `t`. The
 * names are those of every export token issued so far: a cursor `oaa events tail` saved stays good.
 */
const exportTokens = new PageTokens({ a: 'count', h: 'count', t: 'text' });

/** One page of the events list. */
export interface EventsPage {
  values: EventRecord[];
  next_page_token: string;
  has_more: boolean;
}

/** The filtered list, oldest first. */
export function listEventsPage(
  db: Db,
  query: { filter?: unknown; page_size?: unknown; page_token?: unknown },
  nowMs: number,
): EventsPage {
  if (query.filter !== undefined && typeof query.filter !== 'string')
    throw badField('filter', 'must be given once');
  const size = parseEventsPageSize(query.page_size);
  const filter = compileEventFilter(query.filter);
  checkStartTime(filter.startTime, nowMs);
  const fingerprint = queryFingerprint(query.filter ?? '');
  const after = listTokens.decode(query.page_token, fingerprint)?.seq ?? 0;
  purgeExpiredEvents(db, nowMs);
  const cutoff = new Date(nowMs - EVENT_RETENTION_MS).toISOString();
  const rows = db
    .prepare<unknown[], Row>(
      `SELECT ${COLUMNS} FROM events WHERE seq > ? AND timestamp >= ? AND (${filter.sql}) ORDER BY seq LIMIT ?`,
    )
    .all(after, cutoff, ...filter.params, size + 1);
  const hasMore = rows.length > size;
  const page = hasMore ? rows.slice(0, size) : rows;
  const last = page[page.length - 1];
  return {
    values: page.map(toRecord),
    next_page_token: hasMore && last ? listTokens.encode({ seq: last.seq }, fingerprint) : '',
    has_more: hasMore,
  };
}

/** One page of the export. */
export interface ExportPage {
  events: EventRecord[];
  next_page_token: string;
}

const PERSISTED_AT = /^\s*persisted_at\s+(ge|gt)\s+"?([^"\s]+)"?\s*$/i;

/**
 * The export: the first call selects events persisted at or after the filter's time (all retained
 * events without a filter); `next_page_token` then continues with every event stored after the last
 * one returned, including events that arrive while the log is read. The token is always present:
 * an empty page means "nothing new yet", and the same token asks again later.
 */
export function exportEventsPage(
  db: Db,
  query: { filter?: unknown; page_size?: unknown; page_token?: unknown },
  nowMs: number,
): ExportPage {
  const size = parseEventsPageSize(query.page_size);
  let after: number;
  let horizon: number;
  let since: string;
  const token = exportTokens.decode(query.page_token);
  if (token !== undefined) {
    if (query.filter !== undefined && query.filter !== '')
      throw badField(
        'filter',
        'send either filter (the first call) or page_token (every later call), not both',
      );
    ({ a: after, h: horizon, t: since } = token);
  } else {
    if (query.filter !== undefined && typeof query.filter !== 'string')
      throw badField('filter', 'must be given once');
    const m = query.filter === undefined || query.filter === '' ? undefined : PERSISTED_AT.exec(query.filter);
    if (query.filter !== undefined && query.filter !== '' && m === null)
      throw badField(
        'filter',
        'must be "persisted_at GE <timestamp>" (RFC 3339), or absent for every retained event',
      );
    since = m?.[2] === undefined ? '' : normalizeTime(m[2]);
    if (since !== '') checkStartTime(since, nowMs);
    after = 0;
    horizon = db.prepare<[], { h: number | null }>('SELECT max(seq) AS h FROM events').get()?.h ?? 0;
  }
  purgeExpiredEvents(db, nowMs);
  const cutoff = new Date(nowMs - EVENT_RETENTION_MS).toISOString();
  // Events already stored when the read began are chosen by persisted_at; later ones all belong.
  const rows = db
    .prepare<unknown[], Row>(
      `SELECT ${COLUMNS} FROM events WHERE seq > ? AND timestamp >= ? AND (seq > ? OR persisted_at >= ?)
       ORDER BY seq LIMIT ?`,
    )
    .all(after, cutoff, horizon, since, size);
  const last = rows[rows.length - 1];
  return {
    events: rows.map(toRecord),
    next_page_token: exportTokens.encode({ a: last?.seq ?? after, h: horizon, t: since }),
  };
}
