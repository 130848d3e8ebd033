/**
 * Platform events: the SCIM-filtered list (`GET /api/preview/events`) and the continuous export
 * (`GET /api/v1/events/export`), both as async iterators. Reads are retried like every safe call,
 * and a `ResourceExhaused` answer waits the policy's `resourceExhaustedDelayMs` (the spec's minute).
 *
 * The export yields each event with a cursor that resumes right after it: the page token the page
 * was fetched with (or the start time, for the first page) and how many of that page's events were
 * already taken. Resuming fetches that page again and skips them, so a reader that saves the cursor
 * of every event it handled neither repeats nor skips one across restarts.
 */
import { OaaError, type ServiceEvent } from '@oaakit/core';
import type { Api } from '../api.js';
import { buildQuery, quoteFilterValue } from '../filter.js';
import { paginate, type Paginated } from '../paginate.js';
import type { Page } from '../types.js';
import type { CallOptions } from './list-options.js';

/** Options of `events.list`. */
export interface EventListOptions extends CallOptions {
  /** A SCIM filter, e.g. `category eq "INTEGRATIONS" and severity eq "ERROR"`. */
  filter?: string;
  /** Only events at or after this time (joined to `filter` with `and`); at most 32 days back. */
  since?: Date | string;
  /** Events per page; the service's default (1,000) when unset, at most 10,000. */
  pageSize?: number;
}

/** Options of `events.export`. */
export interface EventExportOptions extends CallOptions {
  /** Start of the log (`persisted_at GE`); ignored when `cursor` is given. Default: every retained event. */
  since?: Date | string;
  /** A cursor saved from an earlier export: resume right after that event. */
  cursor?: string;
  pageSize?: number;
  /** Keep waiting for new events instead of ending when the log is caught up. */
  follow?: boolean;
  /** Pause between polls when following; default 5 s. */
  pollIntervalMs?: number;
}

/** An exported event and the cursor that resumes after it. */
export interface ExportedEvent {
  event: ServiceEvent;
  cursor: string;
}

/** Events: `/api/preview/events` and `/api/v1/events/export`. */
export interface EventsApi {
  /**
   * Events matching the filter, across pages.
   *
   * @example
   * for await (const e of client.events.list({ filter: 'severity eq "ERROR"', since: new Date(Date.now() - 864e5) })) console.log(e.name);
   */
  list(options?: EventListOptions): Paginated<ServiceEvent>;
  /**
   * The continuous log, each event with a resumable cursor.
   *
   * @example
   * for await (const { event, cursor } of client.events.export({ cursor: saved })) { handle(event); save(cursor); }
   */
  export(options?: EventExportOptions): AsyncIterable<ExportedEvent>;
}

interface ExportAnswer {
  events?: ServiceEvent[] | null;
  next_page_token?: string | null;
}

/** Where a page starts: a page token, or the start time of the first page; `skip` events taken. */
interface Cursor {
  t?: string;
  f?: string;
  s: number;
  /** The page size the page was fetched with, so resuming fetches the same page. */
  p?: number;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof c.s === 'number' && Number.isSafeInteger(c.s) && c.s >= 0)
      return {
        s: c.s,
        ...(typeof c.t === 'string' ? { t: c.t } : {}),
        ...(typeof c.f === 'string' ? { f: c.f } : {}),
        ...(typeof c.p === 'number' ? { p: c.p } : {}),
      };
  } catch {
    // answered below
  }
  throw new OaaError('not an events export cursor', {
    code: 'CONFIG_INVALID',
    details: { cursor: text.slice(0, 40) },
  });
}

const iso = (t: Date | string): string => (typeof t === 'string' ? new Date(t) : t).toISOString();

function abortable(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), {
      once: true,
    });
  });
}

/** Binds the events resource to a request function. */
export function eventsApi(api: Api): EventsApi {
  return {
    list(options = {}) {
      const parts: string[] = [];
      if (options.since !== undefined) parts.push(`timestamp ge ${quoteFilterValue(iso(options.since))}`);
      if (options.filter !== undefined && options.filter.trim() !== '')
        parts.push(parts.length > 0 ? `(${options.filter})` : options.filter);
      const filter = parts.join(' and ');
      return paginate((token) =>
        api.call<Page<ServiceEvent>>({
          method: 'GET',
          path: '/api/preview/events',
          query: buildQuery({ filter, page_size: options.pageSize, page_token: token }),
          signal: options.signal,
        }),
      );
    },
    async *export(options = {}) {
      let at: Cursor =
        options.cursor !== undefined
          ? decodeCursor(options.cursor)
          : { s: 0, ...(options.since === undefined ? {} : { f: iso(options.since) }) };
      for (;;) {
        // A page partly taken is fetched again with the size it had.
        const size = at.s > 0 && at.p !== undefined ? at.p : options.pageSize;
        const query =
          at.t !== undefined
            ? buildQuery({ page_token: at.t, page_size: size })
            : buildQuery({
                filter: at.f === undefined ? undefined : `persisted_at GE ${quoteFilterValue(at.f)}`,
                page_size: size,
              });
        const page = await api.call<ExportAnswer>({
          method: 'GET',
          path: '/api/v1/events/export',
          query,
          signal: options.signal,
        });
        const events = page.events ?? [];
        const next = page.next_page_token ?? '';
        for (let i = at.s; i < events.length; i++) {
          const last = i === events.length - 1;
          const cursor: Cursor =
            last && next !== ''
              ? { t: next, s: 0 }
              : { ...at, s: i + 1, ...(size === undefined ? {} : { p: size }) };
          yield { event: events[i]!, cursor: encodeCursor(cursor) };
        }
        const fresh = events.length > at.s;
        if (next !== '' && events.length > 0) at = { t: next, s: 0 };
        if (!fresh) {
          if (!options.follow) return;
          await abortable(options.pollIntervalMs ?? 5000, options.signal);
        }
      }
    },
  };
}
