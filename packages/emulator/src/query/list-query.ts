/** Reads `filter`, `order_by`, `page_size` and `page_token` of a list request into SQL pieces. */
import { badField } from '../errors.js';
import { filterSql, parseFilter } from './filter.js';
import { orderBySql } from './order-by.js';
import { parsePage, type PageRequest } from './page.js';

export interface ListSpec {
  /** Filterable fields, mapped to SQL columns. */
  filterColumns: Record<string, string>;
  /** Orderable fields, mapped to SQL columns. */
  orderColumns: Record<string, string>;
  /** Column giving insertion order, which breaks ties. */
  tieBreaker: string;
  /** What the list is of (e.g. a provider id), so a token cannot be reused on another list. */
  scope: string;
}

export interface ListQuery {
  /** `WHERE` condition, or empty. */
  where: string;
  params: string[];
  orderBy: string;
  page: PageRequest;
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badField(name, 'must be given once');
  return value;
}

/** Parses the list parameters of `query` according to `spec`. */
export function parseListQuery(query: Record<string, unknown>, spec: ListSpec): ListQuery {
  const filter = single(query, 'filter');
  const orderBy = single(query, 'order_by');
  const conditions = filter === undefined ? [] : parseFilter(filter, Object.keys(spec.filterColumns));
  const { sql, params } = filterSql(conditions, spec.filterColumns);
  return {
    where: sql,
    params,
    orderBy: orderBySql(orderBy, spec.orderColumns, spec.tieBreaker),
    page: parsePage({ page_size: query.page_size, page_token: query.page_token }, [
      spec.scope,
      filter,
      orderBy,
    ]),
  };
}
