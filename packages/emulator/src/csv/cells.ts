/**
 * Reads typed values out of CSV rows through the column mapping, collecting every bad cell as a
 * violation on `csv_data` that names the line and the column.
 */
import { isRfc3339, type PropertyType, type Violation } from '@oaakit/core';
import type { CsvConfig } from './csv-config.js';
import type { CsvRecord } from './parse-csv.js';

/** A row's cells by field: the header each came from and its trimmed text. */
export type Row = { line: number; cells: Map<string, { header: string; value: string }[]> };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export class CellReader {
  /** The first `maxKept` problems found. */
  readonly violations: Violation[] = [];
  /** Problems found beyond the first `maxKept`: counted, not kept, so bad rows cost no memory. */
  omitted = 0;

  constructor(
    private readonly config: CsvConfig,
    private readonly header: readonly string[],
    private readonly maxKept: number,
  ) {}

  /** Reports a problem with a cell (or a whole line when `header` is undefined). */
  problem(line: number, header: string | undefined, description: string): void {
    if (this.violations.length >= this.maxKept) {
      this.omitted += 1;
      return;
    }
    const where = header === undefined ? `line ${line}` : `line ${line}, column ${JSON.stringify(header)}`;
    this.violations.push({ field: 'csv_data', description: `${where}: ${description}` });
  }

  /** The mapped cells of a record; a record of the wrong width is reported and skipped. */
  row(record: CsvRecord): Row | undefined {
    if (record.fields.length !== this.header.length) {
      this.problem(
        record.line,
        undefined,
        `expected ${this.header.length} fields like the header, found ${record.fields.length}`,
      );
      return undefined;
    }
    const cells: Row['cells'] = new Map();
    record.fields.forEach((value, i) => {
      const header = this.header[i]!;
      const field = this.config.columns.get(header);
      if (field === undefined) return;
      const list = cells.get(field) ?? [];
      list.push({ header, value: value.trim() });
      cells.set(field, list);
    });
    return { line: record.line, cells };
  }

  private first(row: Row, field: string): { header: string; value: string } | undefined {
    return row.cells.get(field)?.find((c) => c.value !== '');
  }

  /** The first non-empty text of `field`, or undefined. */
  text(row: Row, field: string): string | undefined {
    return this.first(row, field)?.value;
  }

  /** Like `text`, but an empty value is reported. */
  required(row: Row, field: string): string | undefined {
    const cell = this.first(row, field);
    if (cell === undefined) this.problem(row.line, this.headerOf(field), 'a value is required');
    return cell?.value;
  }

  private headerOf(field: string): string {
    for (const [header, f] of this.config.columns) if (f === field) return header;
    return field;
  }

  /** A boolean from the configured words (case-insensitive); empty means unset. */
  bool(row: Row, field: string): boolean | undefined {
    const cell = this.first(row, field);
    return cell === undefined ? undefined : this.boolOf(row, cell);
  }

  /** The cell's configured boolean word as a boolean; any other word is a problem of its line. */
  private boolOf(row: Row, cell: { header: string; value: string }): boolean | undefined {
    const word = cell.value.toLowerCase();
    if (this.config.trueValues.includes(word)) return true;
    if (this.config.falseValues.includes(word)) return false;
    this.problem(
      row.line,
      cell.header,
      `expected one of ${[...this.config.trueValues, ...this.config.falseValues].join(',')}, found ${JSON.stringify(cell.value)}`,
    );
    return undefined;
  }

  /** An RFC 3339 timestamp (a bare date means midnight UTC); empty means unset. */
  time(row: Row, field: string): string | undefined {
    const cell = this.first(row, field);
    if (cell === undefined) return undefined;
    const value = DATE_ONLY.test(cell.value) ? `${cell.value}T00:00:00Z` : cell.value;
    if (isRfc3339(value)) return value;
    this.problem(
      row.line,
      cell.header,
      `expected an RFC 3339 timestamp such as 2024-01-01T00:00:00Z, found ${JSON.stringify(cell.value)}`,
    );
    return undefined;
  }

  /** Every item of every cell of `field`, split at the list separator, trimmed, empties dropped. */
  list(row: Row, field: string): string[] {
    const out: string[] = [];
    for (const cell of row.cells.get(field) ?? []) {
      for (const item of cell.value.split(this.config.listSeparator)) {
        const t = item.trim();
        if (t !== '') out.push(t);
      }
    }
    return out;
  }

  /** Custom property values of the row, converted to their configured types (default STRING). */
  properties(row: Row): Record<string, unknown> | undefined {
    let out: Record<string, unknown> | undefined;
    for (const [field, cells] of row.cells) {
      if (!field.startsWith('custom_properties.')) continue;
      const name = field.slice('custom_properties.'.length);
      const cell = cells.find((c) => c.value !== '');
      if (cell === undefined) continue;
      const value = this.convert(row, cell, this.propertyType(name));
      if (value !== undefined) (out ??= {})[name] = value;
    }
    return out;
  }

  /** The declared type of custom property `name`. */
  propertyType(name: string): PropertyType {
    return this.config.propertyTypes.get(name) ?? 'STRING';
  }

  private convert(row: Row, cell: { header: string; value: string }, type: PropertyType): unknown {
    switch (type) {
      case 'STRING':
        return cell.value;
      case 'NUMBER': {
        const n = Number(cell.value);
        if (Number.isFinite(n)) return n;
        this.problem(row.line, cell.header, `expected a number, found ${JSON.stringify(cell.value)}`);
        return undefined;
      }
      case 'BOOLEAN':
        return this.boolOf(row, cell);
      case 'STRING_LIST':
        return cell.value
          .split(this.config.listSeparator)
          .map((s) => s.trim())
          .filter((s) => s !== '');
      case 'TIMESTAMP': {
        const value = DATE_ONLY.test(cell.value) ? `${cell.value}T00:00:00Z` : cell.value;
        if (isRfc3339(value)) return value;
        this.problem(
          row.line,
          cell.header,
          `expected an RFC 3339 timestamp such as 2024-01-01T00:00:00Z, found ${JSON.stringify(cell.value)}`,
        );
        return undefined;
      }
    }
  }

  /** Declared custom properties (every mapped one) for the payload's property definition. */
  propertyDefinitions(): Record<string, PropertyType> {
    const out: Record<string, PropertyType> = {};
    for (const field of this.config.columns.values()) {
      if (field.startsWith('custom_properties.')) {
        const name = field.slice('custom_properties.'.length);
        out[name] = this.propertyType(name);
      }
    }
    return out;
  }
}
