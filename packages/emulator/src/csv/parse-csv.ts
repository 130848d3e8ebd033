/**
 * CSV records as a stream, read with csv-parse: quoted fields with doubled quotes, delimiters and
 * line breaks inside quotes, CRLF, LF or CR line ends (mixed too), a leading byte-order mark, blank
 * lines skipped. Records come one at a time as the text arrives, so a CSV is never held whole, and a
 * record longer than `MAX_CSV_RECORD_BYTES` (an unclosed quote, say) stops the read. Each record
 * carries the line it starts on, for error messages.
 */
import { pipeline, Readable } from 'node:stream';
import { CsvError, parse, type CsvErrorCode, type Info, type Options } from 'csv-parse';
import { MAX_CSV_RECORD_BYTES } from '../push/limits.js';

/** One CSV record and the (1-based) line it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** A syntax error at a line. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'CsvSyntaxError';
  }
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** Line breaks inside the record's (quoted) fields; a CRLF is one. */
function innerLineBreaks(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) if (f.includes('\n') || f.includes('\r')) n += f.match(LINE_BREAK)!.length;
  return n;
}

/** What to tell a user for the errors a CSV's content can cause; any other keeps csv-parse's words. */
const MESSAGES: Partial<Record<CsvErrorCode, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed',
  INVALID_OPENING_QUOTE:
    'a double quote inside an unquoted field: quote the whole field and double the quote ("")',
  CSV_INVALID_CLOSING_QUOTE:
    'unexpected text after a closing quote: a quoted field must end at a delimiter or line end',
  CSV_MAX_RECORD_SIZE: `a record is longer than ${MAX_CSV_RECORD_BYTES} bytes, the most the emulator reads in one row: look for a quote that is not closed, or shorten the row's cells`,
};

/**
 * Reads the records of the CSV text in `text` (pieces of any size). Throws `CsvSyntaxError` at the
 * first malformed record, naming the line it starts on; errors of `text` itself pass through.
 */
export async function* readCsvRecords(
  text: Iterable<string> | AsyncIterable<string>,
  delimiter = ',',
): AsyncGenerator<CsvRecord> {
  // csv-parse counts a CRLF inside quotes as two lines, so lines are counted here: a record starts
  // after the previous one's own line breaks, its record delimiter and the blank lines skipped.
  // `on_record` sees every record in order as it is parsed, so the count is right at an error too
  // (records parsed but not yet read are dropped with the stream then).
  let next = 1;
  let blank = 0;
  const options: Options<CsvRecord, string[]> = {
    delimiter,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: MAX_CSV_RECORD_BYTES,
    record_delimiter: ['\r\n', '\n', '\r'],
    on_record: (fields: string[], info: Info): CsvRecord => {
      const line = next + info.empty_lines - blank;
      blank = info.empty_lines;
      next = line + 1 + innerLineBreaks(fields);
      return { line, fields };
    },
  };
  // csv-parse's typings tie `on_record`'s result type to a `columns` option this parser does not use.
  const parser = parse(options as unknown as Options);
  pipeline(Readable.from(text), parser, () => undefined);
  try {
    yield* parser as AsyncIterable<CsvRecord>;
  } catch (err) {
    if (err instanceof CsvError) {
      const skipped = (err as CsvError & { empty_lines?: number }).empty_lines ?? blank;
      throw new CsvSyntaxError(next + skipped - blank, MESSAGES[err.code] ?? err.message);
    }
    throw err;
  } finally {
    parser.destroy();
  }
}
