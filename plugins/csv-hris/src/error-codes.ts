/**
 * The codes of the errors csv-hris throws. They are the plugin's own, not oaakit's registered ones:
 * the runner wraps them (`EXTRACT_FAILED`, `CHECK_FAILED`) and keeps them as `details.causeCode`.
 */
export type CsvHrisErrorCode =
  /** An input file cannot be opened or read. */
  | 'CSV_FILE_UNREADABLE'
  /** A CSV file breaks a limit or is not UTF-8 text; the error names file, line and column. */
  | 'CSV_INPUT_REFUSED';
