/**
 * The records of one configured file, as `extract` and `check` both read them: with the config's
 * delimiter and limits, and any error of the file system naming the file it happened on.
 */
import type { ConnectorContext } from '@oaakit/core';
import type { CsvHrisConfig } from './config.js';
import type { CsvRecord, CsvSyntaxProblem } from './csv/csv-parser.js';
import { readCsv } from './csv/read-csv.js';
import { filePath, isFileSystemError, readFailure } from './input-files.js';

/** What reading a file needs from the connector context. */
export type FileContext = Pick<ConnectorContext<CsvHrisConfig, never>, 'config' | 'signal' | 'baseDir'>;

/**
 * The record batches of `file` (see `readCsv`). Throws a `CsvInputError` where the parser refuses
 * the input, and an `OaaError` of code `CSV_FILE_UNREADABLE` naming `file` when it cannot be read.
 */
export async function* fileRecords(
  file: string,
  ctx: FileContext,
  onProblem?: (problem: CsvSyntaxProblem) => void,
): AsyncGenerator<CsvRecord[]> {
  const { config } = ctx;
  try {
    yield* readCsv(filePath(file, ctx.baseDir), {
      delimiter: config.delimiter,
      maxRecordBytes: config.maxRecordBytes,
      maxFieldBytes: config.maxFieldBytes,
      signal: ctx.signal,
      ...(onProblem === undefined ? {} : { onProblem }),
    });
  } catch (error) {
    if (isFileSystemError(error)) throw readFailure(file, error, ctx.baseDir);
    throw error;
  }
}

/**
 * How a problem names the column of field `fieldIndex`: its header, `#n` when the header has no such
 * column or is not known yet, `*` for a problem of the whole line or file.
 */
export function columnName(headers: readonly string[] | undefined, fieldIndex: number | undefined): string {
  if (fieldIndex === undefined) return '*';
  return headers?.[fieldIndex] || `#${fieldIndex + 1}`;
}
