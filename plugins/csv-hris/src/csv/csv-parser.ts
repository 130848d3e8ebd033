/**
 * An incremental RFC 4180 CSV parser over UTF-8 bytes: feed it chunks of any size (a chunk may end
 * inside a quoted field, inside a multi-byte character, between `\r` and `\n`, anywhere) and it
 * returns the records completed so far. Only the current record is kept.
 *
 * Why bytes and not decoded text: each field is decoded on its own, so the strings kept in the
 * payload hold only their own characters. Slices of a decoded chunk would keep the whole chunk
 * alive, which for a million-row export means holding the entire file in memory.
 *
 * What it keeps is bounded: a record over `maxRecordBytes` or a value over `maxFieldBytes` stops
 * it, checked at the end of each field and of each chunk, so an input without line breaks (or
 * `/dev/zero`) fails after at most one chunk past the limit instead of growing without end.
 */
import { isUtf8 } from 'node:buffer';
import { CsvInputError, NUL_MESSAGE, fieldTooLong, recordTooLong } from './csv-input-error.js';
import { parserSettings, type CsvParserOptions } from './csv-options.js';
import { invalidUtf8Message, looksLikeUtf16, utf16Bom, utf16Message } from './encoding.js';

/** One record of the input, with the physical line it starts on (1-based, counting embedded newlines). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * A place where the input is not valid CSV or UTF-8; the parser recovers and goes on. Only the
 * first value of the input that is not valid UTF-8 is reported: the others have the same cause.
 */
export interface CsvSyntaxProblem {
  line: number;
  /** 0-based index of the field in its record. */
  fieldIndex: number;
  message: string;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const QUOTE_BYTE = Buffer.from('"');

/**
 * ASCII bytes to a string. `latin1Slice` is what `toString('latin1', ...)` calls after checking its
 * arguments; called for every field, skipping those checks saves about a fifth of the parse time.
 */
const latin1: (bytes: Buffer, start: number, end: number) => string =
  typeof (Buffer.prototype as Partial<Latin1Slice>).latin1Slice === 'function'
    ? (bytes, start, end) => (bytes as unknown as Latin1Slice).latin1Slice(start, end)
    : (bytes, start, end) => bytes.toString('latin1', start, end);

interface Latin1Slice {
  latin1Slice(start: number, end: number): string;
}

const enum State {
  /** At the start of a field. */
  FieldStart,
  /** Inside an unquoted field. */
  Unquoted,
  /** Inside a quoted field. */
  Quoted,
  /** Just after a quote inside a quoted field: an escaped quote or the closing one. */
  QuoteInQuoted,
}

export class CsvParser {
  private readonly delimiter: number;
  private readonly maxRecordBytes: number;
  private readonly maxFieldBytes: number;
  private state = State.FieldStart;
  private fields: string[] = [];
  /** Bytes of the current field from earlier chunks or earlier segments (escaped quotes split them). */
  private pieces: Buffer[] = [];
  /** Total length of `pieces`. */
  private pieceBytes = 0;
  /** OR of the current field's bytes: bit 7 set means it is not plain ASCII. */
  private high = 0;
  /** Index in the current chunk of the pending quote in state QuoteInQuoted; -1 if it was in an earlier chunk. */
  private quoteAt = -1;
  private line = 1;
  private recordLine = 1;
  /** Line on which the current quoted field starts. */
  private quotedLine = 1;
  /** Bytes of the input parsed in earlier chunks (after a byte order mark). */
  private consumed = 0;
  /** Offset in the input of the current record's first byte. */
  private recordStart = 0;
  private reportedUtf8 = false;
  /** Set once the input is refused: the parser cannot go on from there. */
  private refusal: CsvInputError | undefined;
  /** The last chunk ended with a `\r` that ended a record; a `\n` first in the next chunk belongs to it. */
  private skipLf = false;
  /** The first bytes of the input until there are enough to tell whether they are a byte order mark. */
  private head: Buffer | undefined = Buffer.alloc(0);
  /** Syntax problems found so far; the caller drains them. */
  readonly problems: CsvSyntaxProblem[] = [];

  /** Throws a `RangeError` for a delimiter or a limit that cannot work. */
  constructor(options: CsvParserOptions = {}) {
    const settings = parserSettings(options);
    this.delimiter = settings.delimiter;
    this.maxRecordBytes = settings.maxRecordBytes;
    this.maxFieldBytes = settings.maxFieldBytes;
  }

  /**
   * Where the input was refused (see `CsvInputError`): set by the `push` that met it, which still
   * returns the records completed before that place; every later call throws it.
   */
  get refused(): CsvInputError | undefined {
    return this.refusal;
  }

  /** Parses `chunk` and returns the records it completes. A UTF-8 byte order mark at the very start is skipped. */
  push(chunk: Buffer): CsvRecord[] {
    if (this.refusal) throw this.refusal;
    const out: CsvRecord[] = [];
    try {
      if (this.head) {
        // Wait for three bytes, so a byte order mark split across chunks is still recognized.
        const head = Buffer.concat([this.head, chunk]);
        if (head.length < BOM.length) {
          this.head = head;
          return out;
        }
        this.head = undefined;
        chunk = this.begin(head);
      }
      this.parse(chunk, out);
    } catch (error) {
      // Refused: the records before the place are still good; later calls throw.
      if (error !== this.refusal) throw error;
    }
    return out;
  }

  /** Ends the input; returns the last record if the input did not end with a line break. */
  end(): CsvRecord[] {
    if (this.refusal) throw this.refusal;
    const out: CsvRecord[] = [];
    if (this.head) {
      const head = this.head;
      this.head = undefined;
      this.parse(this.begin(head), out);
    }
    if (this.state === State.Quoted) {
      this.problems.push({
        line: this.recordLine,
        fieldIndex: this.fields.length,
        message: 'a quoted field is not closed before the end of the file',
      });
    }
    if (this.state !== State.FieldStart || this.fields.length > 0) {
      this.fields.push(this.decode(Buffer.alloc(0), 0, 0));
      this.emit(out);
    }
    return out;
  }

  /** The input after a UTF-8 byte order mark; refuses a UTF-16 one. */
  private begin(head: Buffer): Buffer {
    const order = utf16Bom(head);
    if (order)
      throw this.refuse(1, undefined, utf16Message(order, 'it starts with a UTF-16 byte order mark'));
    return head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head;
  }

  private parse(chunk: Buffer, out: CsvRecord[]): void {
    // Parse up to a NUL byte, if there is one, to know its line and field; memchr is cheap.
    const nul = chunk.indexOf(0);
    const n = nul === -1 ? chunk.length : nul;
    const d = this.delimiter;
    let i = 0;
    let segStart = 0;
    if (this.skipLf && n > 0) {
      this.skipLf = false;
      if (chunk[0] === LF) {
        i = segStart = 1;
        this.recordStart++;
      }
    }
    while (i < n) {
      switch (this.state) {
        case State.FieldStart: {
          if (chunk[i] === QUOTE) {
            this.state = State.Quoted;
            this.quotedLine = this.line;
            i++;
          } else {
            this.state = State.Unquoted;
          }
          segStart = i;
          break;
        }
        case State.Unquoted: {
          let high = this.high;
          let c = 0;
          while (i < n) {
            c = chunk[i]!;
            if (c === d || c === LF || c === CR) break;
            high |= c;
            i++;
          }
          this.high = high;
          if (i < n) i = segStart = this.endField(chunk, segStart, i, i, out);
          break;
        }
        case State.Quoted: {
          const q = chunk.indexOf(QUOTE, i);
          const end = q === -1 ? n : q;
          let high = this.high;
          for (let k = i; k < end; k++) {
            const c = chunk[k]!;
            high |= c;
            if (c === LF) this.line++;
          }
          this.high = high;
          i = end;
          if (q !== -1) {
            this.state = State.QuoteInQuoted;
            this.quoteAt = q;
            i = q + 1;
          }
          break;
        }
        case State.QuoteInQuoted: {
          const c = chunk[i]!;
          // Content so far ends at the pending quote (or at the chunk start, if the quote was in an earlier one).
          const contentEnd = this.quoteAt === -1 ? segStart : this.quoteAt;
          if (c === QUOTE) {
            // An escaped quote: keep one quote, skip the other.
            this.keep(chunk.subarray(segStart, contentEnd));
            this.keep(QUOTE_BYTE);
            segStart = ++i;
            this.state = State.Quoted;
          } else if (c === d || c === LF || c === CR) {
            i = segStart = this.endField(chunk, segStart, contentEnd, i, out);
          } else {
            // Text after a closing quote: keep it, so nothing is lost, but say where it is.
            this.problems.push({
              line: this.line,
              fieldIndex: this.fields.length,
              message:
                'unexpected text after a closing quote (a quote inside a quoted field is written as "")',
            });
            this.keep(chunk.subarray(segStart, contentEnd));
            segStart = i;
            this.state = State.Unquoted;
          }
          break;
        }
      }
    }
    if (nul !== -1) {
      const utf16 = this.consumed === 0 ? looksLikeUtf16(chunk) : undefined;
      throw utf16
        ? this.refuse(1, undefined, utf16Message(utf16, 'every other byte is zero'))
        : this.refuse(this.line, this.fields.length, NUL_MESSAGE);
    }
    // The chunk ends inside a field: keep its bytes for the next chunk.
    if (this.state === State.Unquoted || this.state === State.Quoted) {
      if (segStart < n) this.keep(chunk.subarray(segStart, n));
    } else if (this.state === State.QuoteInQuoted && this.quoteAt !== -1) {
      this.keep(chunk.subarray(segStart, this.quoteAt));
      this.quoteAt = -1;
    }
    this.consumed += n;
    if (this.pieceBytes > this.maxFieldBytes) throw this.fieldTooLong();
    if (this.consumed - this.recordStart > this.maxRecordBytes) throw this.recordTooLong();
  }

  /** Keeps `piece` of the current field until the field ends. */
  private keep(piece: Buffer): void {
    this.pieces.push(piece);
    this.pieceBytes += piece.length;
  }

  /**
   * Finishes the field whose last bytes in `chunk` are `[start, end)`, at the delimiter or line
   * break at `at`; returns the index to go on from.
   */
  private endField(chunk: Buffer, start: number, end: number, at: number, out: CsvRecord[]): number {
    if (this.pieceBytes + end - start > this.maxFieldBytes) throw this.fieldTooLong();
    this.fields.push(this.decode(chunk, start, end));
    this.state = State.FieldStart;
    const c = chunk[at];
    if (c === this.delimiter) return at + 1;
    if (this.consumed + at - this.recordStart > this.maxRecordBytes) throw this.recordTooLong();
    this.emit(out);
    this.line++;
    let next = at + 1;
    if (c === CR) {
      if (next === chunk.length) this.skipLf = true;
      else if (chunk[next] === LF) next++;
    }
    this.recordStart = this.consumed + next;
    return next;
  }

  /** The text of the current field: earlier pieces plus `chunk[start, end)`. */
  private decode(chunk: Buffer, start: number, end: number): string {
    let bytes = chunk;
    if (this.pieces.length > 0) {
      this.pieces.push(chunk.subarray(start, end));
      bytes = Buffer.concat(this.pieces);
      this.pieces = [];
      this.pieceBytes = 0;
      start = 0;
      end = bytes.length;
    }
    const high = this.high;
    this.high = 0;
    if ((high & 0x80) === 0) return latin1(bytes, start, end);
    const text = bytes.toString('utf8', start, end);
    if (!this.reportedUtf8 && text.includes('\uFFFD') && !isUtf8(bytes.subarray(start, end))) {
      this.reportedUtf8 = true;
      this.problems.push({
        line: this.line,
        fieldIndex: this.fields.length,
        message: invalidUtf8Message(bytes, start, end),
      });
    }
    return text;
  }

  private fieldTooLong(): CsvInputError {
    const quoted = this.state !== State.Unquoted && this.quotedLine < this.line;
    return this.refuse(
      this.recordLine,
      this.fields.length,
      fieldTooLong(this.maxFieldBytes, quoted ? this.quotedLine : undefined),
    );
  }

  private recordTooLong(): CsvInputError {
    // At the end of a record its last field is already stored; name that one.
    const field = this.state === State.FieldStart ? Math.max(0, this.fields.length - 1) : this.fields.length;
    return this.refuse(this.recordLine, field, recordTooLong(this.maxRecordBytes));
  }

  private refuse(line: number, fieldIndex: number | undefined, description: string): CsvInputError {
    this.refusal = new CsvInputError(line, fieldIndex, description);
    this.pieces = [];
    this.fields = [];
    return this.refusal;
  }

  /** Emits the current record, unless it is a blank line. */
  private emit(out: CsvRecord[]): void {
    const fields = this.fields;
    this.fields = [];
    if (!(fields.length === 1 && fields[0] === '')) out.push({ line: this.recordLine, fields });
    this.recordLine = this.line + 1;
  }
}
