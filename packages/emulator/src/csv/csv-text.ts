/**
 * The text of a CSV push's `csv_data` as a stream of strings: gunzipped as it is read when it is
 * gzip, checked to be UTF-8 piece by piece, and never more than `MAX_CSV_BYTES` whether plain or
 * inflated, so a gzip bomb stops after 64 MiB of text, not 500 MB.
 */
import { badField } from '../errors.js';
import { inflate, pieces } from '../push/inflate.js';
import { MAX_CSV_BYTES } from '../push/limits.js';

const TOO_LARGE = `the CSV is larger than ${MAX_CSV_BYTES} bytes (64 MiB), the most one CSV push takes: push data this large as a JSON payload (:push, or a multipart upload through :parts)`;

/** The CSV text of the decoded `csv_data` bytes, gzip when `gzip` is true. Throws 400 on `csv_data`. */
export async function* csvText(bytes: Buffer, gzip: boolean): AsyncGenerator<string> {
  if (!gzip && bytes.length > MAX_CSV_BYTES) throw badField('csv_data', TOO_LARGE);
  const source = gzip
    ? inflate(pieces(bytes), { field: 'csv_data', limit: MAX_CSV_BYTES, tooLarge: TOO_LARGE })
    : pieces(bytes);
  // `fatal`: a byte sequence that is not UTF-8 is an error, not a replacement character.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (piece?: Buffer): string => {
    try {
      return piece === undefined ? decoder.decode() : decoder.decode(piece, { stream: true });
    } catch {
      throw badField('csv_data', 'is not valid UTF-8');
    }
  };
  for await (const piece of source) {
    const text = decode(piece);
    if (text !== '') yield text;
  }
  const rest = decode();
  if (rest !== '') yield rest;
}
