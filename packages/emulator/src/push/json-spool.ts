/**
 * The streaming JSON reader of pushed payloads. It reads the decoded bytes piece by piece and splits
 * them in two: the large collections of an application payload (each application's `local_users`
 * and `resources`, and `identity_to_permissions`) go, as their raw bytes, to a spool file on disk,
 * and everything else (the "skeleton": applications, roles, groups, permissions) stays in memory, with
 * a placeholder where each spooled array was. The skeleton is parsed with `JSON.parse`; a spooled
 * collection is read back as an iterable that parses it in batches of entities (`SpoolCollection`).
 *
 * Why a hand-written scanner and not `@streamparser/json` or `stream-json` (the usual streaming JSON
 * parsers): measured on this machine on bench-app-1000000 (395 MB of JSON read from a file, one process
 * each, same minute, load average about 9), picking the 2,010,000 users and grants out of it took
 * `@streamparser/json` 0.0.22 13.1 s (30 MB/s, peak RSS 437 MB) and `stream-json` 1.9 28.6 s
 * (13.8 MB/s, 470 MB), parsing only; `JSON.parse` of the whole text took 5.6 s (71 MB/s, 1.44 GB);
 * this scanner with its spool and batched `JSON.parse` took 3.4 s (115 MB/s, 263 MB), every entity
 * parsed. (On bench-app-100000: 42, 14.5, 133 MB/s.) The ingest target is 50 MB/s of JSON end to
 * end (parse, validate and write the graph), which neither library leaves room for. This
 * scanner only finds where strings and brackets are (it skips strings with `indexOf`) and leaves
 * every value to `JSON.parse`, so the engine's parser still decides what is valid JSON: every byte
 * of the payload ends up in exactly one `JSON.parse`d text (the skeleton, or one batch of a spooled
 * array wrapped in `[` `]`).
 *
 * A key this scanner does not recognise (one written with escapes, say) only means that its value
 * stays in the skeleton: the payload means the same, it is just held in memory.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writevSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { badField } from '../errors.js';
import { Utf8Check } from './utf8-check.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Bytes of a spooled array parsed at once when it is read back. */
const BATCH_BYTES = 256 * 1024;
/** Bytes gathered before one write to the spool file. */
const WRITE_BYTES = 1024 * 1024;
/** Longest key the scanner compares (longer keys are never spooled ones). */
const MAX_KEY = 32;

/** One spooled array: where its bytes are in the spool file, cut between entities. */
export interface SpoolRegion {
  /** File offsets of the opening `[`, of some separating commas, and of the closing `]`. */
  cuts: number[];
  /** Offset in the decoded payload of the opening `[`, for error messages. */
  payloadStart: number;
  /** How deep arrays and objects nest inside the array (1: its elements are scalars or empty). */
  depth: number;
}

/** What the scan of a payload produced: the skeleton text and the spooled arrays. */
export interface ScanResult {
  skeleton: Buffer;
  /** The string that stands in the skeleton for spooled array `n`: `${token}${n}`. */
  token: string;
  regions: SpoolRegion[];
  /** Total bytes of decoded JSON read. */
  bytes: number;
}

/** The spool file (in the OS temporary directory): written while scanning, read back by `SpoolCollection`s. */
export class SpoolFile {
  readonly fd: number;
  private readonly dir: string;
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'oaa-ingest-'));
    this.fd = openSync(join(this.dir, 'spool'), 'w+');
    // Removed at once where an open file can be (Linux, macOS): nothing is left if the process dies.
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // Windows: removed by close().
    }
  }

  /** Offset the next byte appended will have. */
  get offset(): number {
    return this.size + this.pendingBytes;
  }

  append(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= WRITE_BYTES) this.flush();
  }

  flush(): void {
    if (this.pendingBytes === 0) return;
    // The pieces as they are (views of the decoded input): no copy into one buffer.
    let pieces = this.pending;
    let at = this.size;
    while (pieces.length > 0) {
      let written = writevSync(this.fd, pieces, at);
      at += written;
      let k = 0;
      while (k < pieces.length && written >= pieces[k]!.length) written -= pieces[k++]!.length;
      pieces = pieces.slice(k);
      if (written > 0) pieces[0] = pieces[0]!.subarray(written);
    }
    this.size += this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Closes and deletes the file. */
  close(): void {
    this.pending = [];
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Which arrays to spool: by their key, at depth 1 (top level) or 3 (in an application). */
export interface SpoolPaths {
  /** Keys of the top-level object whose array values are spooled. */
  top: readonly string[];
  /** Keys of the objects in the top-level `applications` array whose array values are spooled. */
  inApplications: readonly string[];
}

/** The paths spooled for the application template. */
export const APPLICATION_SPOOL: SpoolPaths = {
  top: ['identity_to_permissions'],
  inApplications: ['local_users', 'resources'],
};

/** Reads decoded payload bytes piece by piece; `end` answers the skeleton and spooled regions. */
export class PayloadScanner {
  private readonly token = `\u0000oaa-spool-${randomBytes(12).toString('hex')}-`;
  private readonly skeleton: Buffer[] = [];
  private readonly regions: SpoolRegion[] = [];
  private readonly utf8: Utf8Check;
  private bytes = 0;
  private depth = 0;
  private inString = false;
  /** Whether the byte before the current piece was an unfinished backslash escape in a string. */
  private escaped = false;
  /** Container kinds at depths 1..3 (true: object). */
  private readonly isObject: boolean[] = [];
  /** The last key read at depth 1 and at depth 3. */
  private key1 = '';
  private key3 = '';
  /** The string being read at depth 1 or 3 (its bytes so far), or undefined when not captured. */
  private capture: number[] | undefined;
  private lastString = '';
  /** The depth inside the spooled array (its elements' level), 0 when not spooling. */
  private spoolDepth = 0;
  private region: SpoolRegion | undefined;
  private lastCut = 0;

  constructor(
    private readonly spool: SpoolFile,
    private readonly paths: SpoolPaths,
    private readonly field: string,
  ) {
    this.utf8 = new Utf8Check(field);
  }

  /** Reads the next piece of the payload. */
  write(piece: Buffer): void {
    this.utf8.check(piece);
    let from = 0; // start of the bytes not yet handed to the skeleton or the spool
    const n = piece.length;
    let i = 0;
    while (i < n) {
      if (this.inString) {
        const end = this.stringEnd(piece, i);
        if (end < 0) {
          if (this.capture) this.captureBytes(piece, i, n);
          i = n;
          break;
        }
        if (this.capture) this.captureBytes(piece, i, end);
        this.inString = false;
        if (this.capture) {
          this.lastString = this.capture.length <= MAX_KEY ? String.fromCharCode(...this.capture) : '';
          this.capture = undefined;
        }
        i = end + 1;
        continue;
      }
      const c = piece[i]!;
      if (c === QUOTE) {
        this.inString = true;
        this.capture = (this.depth === 1 || this.depth === 3) && this.spoolDepth === 0 ? [] : undefined;
      } else if (c === COLON) {
        if (this.depth === 1) this.key1 = this.lastString;
        else if (this.depth === 3) this.key3 = this.lastString;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.depth++;
        if (this.spoolDepth !== 0) {
          if (this.depth - this.spoolDepth > this.region!.depth)
            this.region!.depth = this.depth - this.spoolDepth;
        } else {
          if (this.depth <= 3) this.isObject[this.depth] = c === OPEN_OBJECT;
          if (c === OPEN_ARRAY && this.spoolsHere()) {
            this.skeleton.push(piece.subarray(from, i));
            this.skeleton.push(Buffer.from(JSON.stringify(`${this.token}${this.regions.length}`)));
            this.spoolDepth = this.depth;
            this.lastCut = this.spool.offset;
            this.region = { cuts: [this.lastCut], payloadStart: this.bytes + i, depth: 0 };
            this.regions.push(this.region);
            from = i;
          }
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (this.spoolDepth !== 0 && this.depth === this.spoolDepth) {
          if (c !== CLOSE_ARRAY) throw this.syntax(`"}" closes an array at byte ${this.bytes + i}`);
          this.spool.append(piece.subarray(from, i + 1));
          this.region!.cuts.push(this.spool.offset - 1);
          this.region = undefined;
          this.spoolDepth = 0;
          from = i + 1;
        }
        this.depth--;
        this.lastString = '';
      } else if (c === COMMA) {
        if (this.spoolDepth !== 0 && this.depth === this.spoolDepth) {
          const at = this.spool.offset + (i - from);
          if (at - this.lastCut >= BATCH_BYTES) {
            this.region!.cuts.push(at);
            this.lastCut = at;
          }
        }
        this.lastString = '';
      }
      i++;
    }
    if (this.spoolDepth === 0) this.skeleton.push(piece.subarray(from, n));
    else this.spool.append(piece.subarray(from, n));
    this.bytes += n;
  }

  /** Ends the read: answers the skeleton and the regions, or 400 when the payload is cut short. */
  end(): ScanResult {
    this.utf8.end();
    if (this.inString)
      throw this.syntax(`the payload ends inside a string (after ${this.bytes} bytes): it was cut short`);
    if (this.depth > 0) {
      throw this.syntax(
        `the payload ends with ${this.depth} array(s) or object(s) still open (after ${this.bytes} bytes): it was cut short`,
      );
    }
    this.spool.flush();
    return {
      skeleton: Buffer.concat(this.skeleton),
      token: this.token,
      regions: this.regions,
      bytes: this.bytes,
    };
  }

  private spoolsHere(): boolean {
    const d = this.depth;
    if (d === 2) return this.isObject[1] === true && this.paths.top.includes(this.key1);
    if (d === 4) {
      return (
        this.isObject[1] === true &&
        this.key1 === 'applications' &&
        this.isObject[2] === false &&
        this.isObject[3] === true &&
        this.paths.inApplications.includes(this.key3)
      );
    }
    return false;
  }

  /** Index of the quote that ends the string at `i`, or -1 when it does not end in this piece. */
  private stringEnd(piece: Buffer, i: number): number {
    if (this.escaped) {
      // The previous piece ended with the backslash of an escape: this byte is the escaped one.
      this.escaped = false;
      i++;
    }
    const start = i;
    for (;;) {
      const q = piece.indexOf(QUOTE, i);
      const at = q < 0 ? piece.length : q;
      let run = 0;
      for (let k = at - 1; k >= start && piece[k] === BACKSLASH; k--) run++;
      if (q < 0) {
        this.escaped = run % 2 === 1;
        return -1;
      }
      if (run % 2 === 0) return q;
      i = q + 1;
    }
  }

  private captureBytes(piece: Buffer, from: number, to: number): void {
    const cap = this.capture!;
    if (cap.length > MAX_KEY) return;
    for (let k = from; k < to && cap.length <= MAX_KEY; k++) cap.push(piece[k]!);
  }

  private syntax(description: string) {
    return badField(this.field, `is not valid JSON: ${description}`);
  }
}
