/**
 * The header and the rows of a CSV push, mapped through the provider's column mapping as the
 * records stream in. A CSV of more than `MAX_CSV_ROWS` data rows is refused at the first row past
 * the limit, before the rest is read.
 */
import type { Violation } from '@oaakit/core';
import { badField, invalidArgument } from '../errors.js';
import { MAX_CSV_ROWS } from '../push/limits.js';
import { CellReader, type Row } from './cells.js';
import type { CsvConfig } from './csv-config.js';
import type { CsvRecord } from './parse-csv.js';

/** A CSV's cell reader (made from its header) and its mapped data rows, read on demand. */
export interface CsvRows {
  cells: CellReader;
  rows: AsyncIterable<Row>;
}

const TOO_MANY_ROWS = `the CSV has more than ${MAX_CSV_ROWS} data rows, the most one CSV push takes: push data this large as a JSON payload (:push, or a multipart upload through :parts)`;

function missingColumns(config: CsvConfig, header: readonly string[]): Violation[] {
  return [...config.columns.keys()]
    .filter((h) => !header.includes(h))
    .map((h) => ({
      field: 'csv_data',
      description: `line 1: column ${JSON.stringify(h)} of the provider's mapping is missing from the header`,
    }));
}

/**
 * Reads the header from `records` and checks it names every mapped column; the rows follow as
 * they are iterated. Keeps at most `maxReported` cell problems (see `CellReader`).
 */
export async function readCsvRows(
  records: AsyncIterator<CsvRecord>,
  config: CsvConfig,
  maxReported: number,
): Promise<CsvRows> {
  const first = await records.next();
  if (first.done) throw badField('csv_data', 'the CSV is empty: the first line must name the columns');
  const header = first.value.fields.map((h) => h.trim());
  const missing = missingColumns(config, header);
  if (missing.length > 0) throw invalidArgument(missing);
  const cells = new CellReader(config, header, maxReported);
  async function* rows(): AsyncGenerator<Row> {
    let count = 0;
    for (let next = await records.next(); !next.done; next = await records.next()) {
      count += 1;
      if (count > MAX_CSV_ROWS) throw badField('csv_data', `line ${next.value.line}: ${TOO_MANY_ROWS}`);
      const row = cells.row(next.value);
      if (row !== undefined) yield row;
    }
  }
  return { cells, rows: rows() };
}
