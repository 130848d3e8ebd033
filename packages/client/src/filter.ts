/**
 * List filters and query strings, built by hand because the service is strict about encoding:
 * a space must travel as `+`; `%2B` (an encoded plus) in place of a space causes errors.
 */

/** A list filter: either field equalities joined with `and`, or a raw expression. */
export type ListFilter = { name?: string; state?: string } | string;

/** Quotes a filter value, escaping backslashes and double quotes. */
export function quoteFilterValue(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The filter expression for a {@link ListFilter}.
 *
 * @example
 * filterExpression({ name: 'My App' }) // 'name eq "My App"'
 */
export function filterExpression(filter: ListFilter): string {
  if (typeof filter === 'string') return filter;
  const parts: string[] = [];
  if (filter.name !== undefined) parts.push(`name eq ${quoteFilterValue(filter.name)}`);
  if (filter.state !== undefined) parts.push(`state eq ${quoteFilterValue(filter.state)}`);
  return parts.join(' and ');
}

/** Form-encodes one query component: spaces become `+`, everything else outside the unreserved set is %-encoded (a literal `+` becomes `%2B`). */
export function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** Query parameter values; `undefined` and empty-string entries are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** Builds `a=1&b=x+y` (no leading `?`) from the defined parameters, in insertion order. */
export function buildQuery(params: QueryParams): string {
  const out: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    out.push(`${formEncode(key)}=${formEncode(String(value))}`);
  }
  return out.join('&');
}

/** Percent-encodes one path segment (ids are UUIDs, but a caller's typo must not change the path). */
export function pathSegment(value: string): string {
  return encodeURIComponent(value);
}
