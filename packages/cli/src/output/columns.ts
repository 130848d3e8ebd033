/** How providers and data sources show in tables and detail views. */
import type { DataSource, Provider } from '@oaakit/client';
import type { Column } from './table.js';

/** Columns of `oaa providers list`. */
export const PROVIDER_COLUMNS: readonly Column<Provider>[] = [
  { header: 'ID', get: (p) => p.id },
  { header: 'NAME', get: (p) => p.name },
  { header: 'TEMPLATE', get: (p) => p.custom_template },
  { header: 'STATE', get: (p) => p.state },
];

/** Columns of `oaa datasources list`. */
export const DATA_SOURCE_COLUMNS: readonly Column<DataSource>[] = [
  { header: 'ID', get: (d) => d.id },
  { header: 'NAME', get: (d) => d.name },
  { header: 'STATUS', get: (d) => d.status },
];

function shown(value: unknown): string | number | boolean | null | undefined {
  if (value === null || value === undefined) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** Every field of a record, `id` and `name` first, for the `get` commands. */
export function recordFields(
  record: Record<string, unknown>,
): [string, string | number | boolean | null | undefined][] {
  const first = ['id', 'name'].filter((k) => k in record);
  const rest = Object.keys(record)
    .filter((k) => !first.includes(k))
    .sort();
  return [...first, ...rest].map((k) => [k, shown(record[k])]);
}
