/** Reads a file's header line: which column fills which field, and which become custom properties. */
import type { CsvHrisConfig } from './config.js';
import { DEFAULT_COLUMNS, FIELDS, REQUIRED_FIELDS, headerKey, propertyName, type Field } from './fields.js';
import type { Problems } from './problems.js';

/** A column that becomes a custom property. */
export interface PropertyColumn {
  index: number;
  /** Property name, `^[a-z][a-z_]*$`. */
  name: string;
}

/** The columns of one file. */
export interface HeaderMap {
  /** Column index of each field, -1 when the file has no such column. */
  index: Record<Field, number>;
  /** Header texts as written (trimmed), to name columns in problems. */
  headers: string[];
  properties: PropertyColumn[];
}

/**
 * Maps the header line `fields` of `file`. Problems go to `problems` at line 1; returns undefined
 * when a required column is missing, since no row of the file can then be read.
 */
export function mapHeader(
  file: string,
  fields: readonly string[],
  config: CsvHrisConfig,
  problems: Problems,
): HeaderMap | undefined {
  const headers = fields.map((h) => h.trim());
  const at = (column: string) => ({ file, line: 1, column });
  const byKey = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = headerKey(h);
    if (key === '') return;
    const first = byKey.get(key);
    if (first === undefined) byKey.set(key, i);
    else
      problems.add(
        at(h),
        `the column ${JSON.stringify(h)} appears twice (columns ${first + 1} and ${i + 1})`,
      );
  });

  let fatal = false;
  const index = {} as Record<Field, number>;
  for (const field of FIELDS) {
    const configured = config.columns[field];
    const header = configured === null ? null : (configured ?? DEFAULT_COLUMNS[field]);
    const i = header === null ? -1 : (byKey.get(headerKey(header)) ?? -1);
    index[field] = i;
    if (i !== -1 || header === null) continue;
    if (REQUIRED_FIELDS.includes(field)) {
      fatal = true;
      problems.add(
        at(header),
        `the required column ${JSON.stringify(header)} (${field}) is missing from the header`,
      );
    } else if (configured !== undefined) {
      problems.add(
        at(header),
        `the column ${JSON.stringify(header)}, configured for ${field}, is missing from the header`,
      );
    }
  }
  if (index.is_active === -1 && index.employment_status === -1) {
    fatal = true;
    const active = config.columns.is_active ?? DEFAULT_COLUMNS.is_active;
    problems.add(
      at(active ?? 'active'),
      'the header needs an active column or an employment_status column (is_active is derived from either)',
    );
  }

  const used = new Set(Object.values(index));
  const ignored = new Set(config.ignoreColumns.map(headerKey));
  const properties: PropertyColumn[] = [];
  const byName = new Map<string, string>();
  headers.forEach((h, i) => {
    const key = headerKey(h);
    if (used.has(i) || key === '' || ignored.has(key) || byKey.get(key) !== i) return;
    const name = propertyName(h);
    const other = byName.get(name);
    if (name === '') {
      problems.add(
        at(h),
        `the column ${JSON.stringify(h)} has no letters to make a custom property name of: map it in columns or list it in ignoreColumns`,
      );
    } else if (other !== undefined) {
      problems.add(
        at(h),
        `the columns ${JSON.stringify(other)} and ${JSON.stringify(h)} both become the custom property ${name}: list one in ignoreColumns`,
      );
    } else {
      byName.set(name, h);
      properties.push({ index: i, name });
    }
  });
  return fatal ? undefined : { index, headers, properties };
}
