/** Streams the records of one CSV file, a chunk at a time: the file is never held in memory whole. */
import { createReadStream } from 'node:fs';
import type { CsvParserOptions } from './csv-options.js';
import { CsvParser, type CsvRecord, type CsvSyntaxProblem } from './csv-parser.js';

/** Options of `readCsv`: the parser's (delimiter, limits) and these. */
export interface ReadCsvOptions extends CsvParserOptions {
  /** Stops reading: the stream is destroyed and the iteration throws an `AbortError`. */
  signal?: AbortSignal;
  /** Called for each syntax or encoding problem; the parser recovers and goes on. */
  onProblem?: (problem: CsvSyntaxProblem) => void;
  /** Bytes read per chunk; default 64 KiB (larger chunks keep more short-lived records alive per GC cycle). */
  chunkBytes?: number;
}

/**
 * The records of the CSV file at `path`, in batches (one batch per chunk read; a batch may be empty).
 * The text is UTF-8, with or without a byte order mark; the first value that is not valid UTF-8 is
 * reported through `onProblem`. Where the parser refuses the input (a record or value over its
 * limit, a NUL byte, UTF-16), the iteration yields the records before that place, then throws the
 * `CsvInputError` without reading further. Errors reading the file (`ENOENT`, `EISDIR`) are thrown
 * as the file system reports them.
 *
 * @example
 * for await (const batch of readCsv('employees.csv', { delimiter: ';' }))
 *   for (const { line, fields } of batch) handle(line, fields);
 */
export async function* readCsv(path: string, options: ReadCsvOptions = {}): AsyncGenerator<CsvRecord[]> {
  const parser = new CsvParser(options);
  const stream = createReadStream(path, {
    highWaterMark: options.chunkBytes ?? 64 * 1024,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const drain = () => {
    if (options.onProblem) for (const p of parser.problems) options.onProblem(p);
    parser.problems.length = 0;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      options.signal?.throwIfAborted();
      const records = parser.push(chunk);
      drain();
      yield records;
      if (parser.refused) throw parser.refused;
    }
    const tail = parser.end();
    drain();
    yield tail;
  } finally {
    stream.destroy();
  }
}
