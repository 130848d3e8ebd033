/**
 * Input the CSV parser refuses to go on with: a record or value over its length limit, a NUL
 * byte, a file in UTF-16. Unlike a syntax problem there is nothing sensible to recover to (the
 * rest of the file would be read as one endless value, or as garbage), so reading stops there,
 * with the memory held bounded by the limits.
 */
import { OaaError } from '@oaakit/core';
import type { CsvHrisErrorCode } from '../error-codes.js';

/** Why the parser stopped, and where. */
export class CsvInputError extends OaaError<CsvHrisErrorCode> {
  /** The line of the input (1-based) the record starts on, or the line of a NUL byte. */
  readonly line: number;
  /** The 0-based index of the field in its record; undefined when the whole input is refused. */
  readonly fieldIndex: number | undefined;
  /** What is wrong and how to fix it, without the location. */
  readonly description: string;

  constructor(line: number, fieldIndex: number | undefined, description: string) {
    super(`line ${line}${fieldIndex === undefined ? '' : `, field ${fieldIndex + 1}`}: ${description}`, {
      code: 'CSV_INPUT_REFUSED',
      details: { line, ...(fieldIndex === undefined ? {} : { field: fieldIndex + 1 }) },
    });
    this.name = 'CsvInputError';
    this.line = line;
    this.fieldIndex = fieldIndex;
    this.description = description;
  }
}

/** A value over `maxFieldBytes`; `quotedFrom` is the line a quoted value that spans lines starts on. */
export function fieldTooLong(max: number, quotedFrom: number | undefined): string {
  const unclosed =
    quotedFrom === undefined
      ? ''
      : `; it starts with a quote on line ${quotedFrom}: if its closing quote is missing, the rest of the file is read as this one value`;
  return `the value is longer than ${max} bytes, the limit (raise it with the option maxFieldBytes)${unclosed}`;
}

/** A record over `maxRecordBytes`. */
export function recordTooLong(max: number): string {
  return `the record is longer than ${max} bytes, the limit (raise it with the option maxRecordBytes); a file that is not CSV, or has no line breaks, is read as one record`;
}

/** A NUL byte: text files have none, binary files and UTF-16 or UTF-32 text do. */
export const NUL_MESSAGE =
  'the value holds a NUL byte (0x00), which a text file does not: the file may be binary, or UTF-16 or UTF-32 text; a CSV file must be UTF-8 text';
