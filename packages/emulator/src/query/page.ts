/**
 * Pagination: `page_size` and an opaque `page_token`. Only `has_more` says whether more results exist;
 * `next_page_token` is empty on the last page.
 */
import { badField } from '../errors.js';
import { PageTokens, queryFingerprint } from './page-token.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  offset: number;
  size: number;
  /** Binds a token to the query it was issued for. */
  fingerprint: string;
}

/** One page of results as the service answers it. */
export interface Page<T> {
  values: T[];
  next_page_token: string;
  has_more: boolean;
}

const tokens = new PageTokens(
  { offset: 'count' },
  'was issued for a different filter or order_by: send the same query parameters with every page',
);

function parseSize(value: unknown): number {
  if (value === undefined || value === '') return DEFAULT_PAGE_SIZE;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
    throw badField('page_size', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return n;
}

/** Reads `page_size` and `page_token` for a query identified by `queryParts` (filter, order, scope). */
export function parsePage(
  query: { page_size?: unknown; page_token?: unknown },
  queryParts: readonly (string | undefined)[],
): PageRequest {
  const size = parseSize(query.page_size);
  const fingerprint = queryFingerprint(queryParts);
  const offset = tokens.decode(query.page_token, fingerprint)?.offset ?? 0;
  return { offset, size, fingerprint };
}

/** Builds the page from up to `size + 1` rows fetched at the request's offset. */
export function toPage<T>(rows: T[], page: PageRequest): Page<T> {
  const hasMore = rows.length > page.size;
  const values = hasMore ? rows.slice(0, page.size) : rows;
  const next = hasMore ? tokens.encode({ offset: page.offset + page.size }, page.fingerprint) : '';
  return { values, next_page_token: next, has_more: hasMore };
}
