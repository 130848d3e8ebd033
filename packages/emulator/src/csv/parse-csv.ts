/**
 * A small RFC 4180 CSV parser: quoted fields with doubled quotes, delimiters and line breaks inside
 * quotes, CRLF or LF (or CR) line ends, a leading byte-order mark, blank lines skipped. Each record
 * carries the line it starts on, for error messages.
 */

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

/** Parses `text` into records; throws `CsvSyntaxError`. */
export function parseCsv(text: string, delimiter = ','): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let fields: string[] = [];
  let recordLine = 1;
  let field = '';
  let quotedRecord = false;
  const n = text.length;

  const endRecord = (): void => {
    fields.push(field);
    // A blank line is one empty, unquoted field: skip it.
    if (!(fields.length === 1 && fields[0] === '' && !quotedRecord))
      records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    quotedRecord = false;
  };
  const lineBreak = (): void => {
    if (text[i] === '\r' && text[i + 1] === '\n') i += 2;
    else i += 1;
    line += 1;
  };

  while (i < n) {
    if (field === '' && text[i] === '"') {
      quotedRecord = true;
      const startLine = line;
      i += 1;
      for (;;) {
        if (i >= n) throw new CsvSyntaxError(startLine, 'a quoted field is not closed');
        const c = text[i]!;
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (c === '\r' || c === '\n') {
          field += c === '\r' && text[i + 1] === '\n' ? '\r\n' : c;
          lineBreak();
          continue;
        }
        field += c;
        i += 1;
      }
      const next = text[i];
      if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') {
        throw new CsvSyntaxError(
          line,
          `unexpected ${JSON.stringify(next)} after a closing quote: a quoted field must end at a delimiter or line end`,
        );
      }
      if (next === undefined) break;
      if (next === delimiter) {
        fields.push(field);
        field = '';
        i += 1;
        continue;
      }
      endRecord();
      lineBreak();
      recordLine = line;
      continue;
    }
    const c = text[i]!;
    if (c === delimiter) {
      fields.push(field);
      field = '';
      i += 1;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      lineBreak();
      recordLine = line;
    } else if (c === '"') {
      throw new CsvSyntaxError(
        line,
        'a double quote inside an unquoted field: quote the whole field and double the quote ("")',
      );
    } else {
      let j = i + 1;
      while (j < n) {
        const d = text[j];
        if (d === delimiter || d === '\r' || d === '\n' || d === '"') break;
        j += 1;
      }
      field += text.slice(i, j);
      i = j;
    }
  }
  if (field !== '' || fields.length > 0 || quotedRecord) endRecord();
  return records;
}
