/** The options of the CSV parser, their defaults, and the check that they can work. */

/** Options of a `CsvParser` (and of `readCsv`). */
export interface CsvParserOptions {
  /** One ASCII character other than a quote or a line break; default `,`. */
  delimiter?: string;
  /** Longest record in bytes, line breaks inside quotes included; default 1 MiB. */
  maxRecordBytes?: number;
  /** Longest value in bytes; default 64 KiB. */
  maxFieldBytes?: number;
}

/** Default `maxRecordBytes`: far beyond any HR export's line, small enough to stop a runaway read early. */
export const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;
/** Default `maxFieldBytes`: far beyond the service's limits for a value (256 bytes, 4096 characters). */
export const DEFAULT_MAX_FIELD_BYTES = 64 * 1024;

/** The options as the parser uses them: the delimiter as its byte. */
export interface ParserSettings {
  delimiter: number;
  maxRecordBytes: number;
  maxFieldBytes: number;
}

/** `options` with defaults applied; throws a `RangeError` for a delimiter or a limit that cannot work. */
export function parserSettings(options: CsvParserOptions): ParserSettings {
  const delimiter = options.delimiter ?? ',';
  const code = delimiter.charCodeAt(0);
  if (
    delimiter.length !== 1 ||
    code > 0x7f ||
    delimiter === '"' ||
    delimiter === '\r' ||
    delimiter === '\n'
  ) {
    throw new RangeError(
      `the delimiter must be one ASCII character other than a quote or a line break, got ${JSON.stringify(delimiter)}`,
    );
  }
  return {
    delimiter: code,
    maxRecordBytes: limit('maxRecordBytes', options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES),
    maxFieldBytes: limit('maxFieldBytes', options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES),
  };
}

function limit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
