import { buildQuery, filterExpression } from '../filter.js';
import type { ListFilter } from '../filter.js';

/** Options of a list call. */
export interface ListOptions {
  /** `{ name }` / `{ state }` equalities, or a raw filter expression. */
  filter?: ListFilter;
  /** Field to order by, e.g. `state`. */
  orderBy?: string;
  /** Results per page; the service's default when unset. */
  pageSize?: number;
  signal?: AbortSignal | undefined;
}

/** Options every call takes. */
export interface CallOptions {
  /** Cancels the call, including waits between retries. */
  signal?: AbortSignal | undefined;
}

/** The query string of one page of a list call. */
export function listQuery(options: ListOptions, pageToken: string | undefined): string {
  return buildQuery({
    filter: options.filter === undefined ? undefined : filterExpression(options.filter),
    order_by: options.orderBy,
    page_size: options.pageSize,
    page_token: pageToken,
  });
}
