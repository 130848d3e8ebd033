/** A plain-text table for humans: one header row, columns padded to their widest cell. */

/** One column: its header and how to read a row's cell. */
export interface Column<T> {
  header: string;
  get: (row: T) => string | number | boolean | null | undefined;
  /** Right-align (numbers). */
  right?: boolean;
}

function cellText(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value).replace(/[\r\n\t]+/g, ' ');
}

/** Display width, counting each code point as one column (good enough for names and ids). */
function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return right ? fill + text : text + fill;
}

/**
 * Renders rows as an aligned table, without trailing spaces.
 *
 * @example
 * renderTable([{ header: 'ID', get: (p) => p.id }, { header: 'NAME', get: (p) => p.name }], providers)
 */
export function renderTable<T>(columns: readonly Column<T>[], rows: readonly T[]): string {
  const cells = rows.map((row) => columns.map((c) => cellText(c.get(row))));
  const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((r) => width(r[i] ?? ''))));
  const line = (values: readonly string[]): string =>
    values
      .map((v, i) => pad(v, widths[i] ?? 0, columns[i]?.right === true))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
}

/** Renders `label: value` lines with the labels aligned, for a single record. */
export function renderFields(
  fields: readonly (readonly [string, string | number | boolean | null | undefined])[],
): string {
  const size = Math.max(0, ...fields.map(([label]) => width(label)));
  return fields.map(([label, value]) => `${pad(`${label}:`, size + 1, false)} ${cellText(value)}`).join('\n');
}
