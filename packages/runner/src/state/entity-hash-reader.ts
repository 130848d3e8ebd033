/**
 * Reads a snapshot written by `EntityHashWriter` (see `entity-hash-writer.ts` for its lines) into
 * the last push's hashes for the diff, and again, later, for the names of removed entities. A
 * snapshot of another format is refused (`OtherSnapshotFormat`): a state directory written by
 * another version of oaakit is deleted, and the next run starts afresh.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ENTITY_KINDS } from '@oaakit/core';
import type { EntityKind } from '@oaakit/core';
import { ENTITY_HASHES_FORMAT, OWN_HASH_LENGTH } from './entity-hash-writer.js';
import { PreviousHashes, type PreviousEntity } from './previous-hashes.js';

/** The own hash in the 13 hex digits at `from`; NaN if they are not hex. */
function ownIn(bytes: Uint8Array, from: number): number {
  // Digit by digit: `parseInt(text, 16)` costs a string and a parse per entity.
  let n = 0;
  for (let i = from; i < from + OWN_HASH_LENGTH; i++) {
    const c = bytes[i]!;
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (d < 0) return Number.NaN;
    n = n * 16 + d;
  }
  return n;
}

/** What a key reads as: the value after the key field's name (`name\0bob` -> `bob`), or the key. */
function keyValue(key: string): string {
  const at = key.indexOf('\u0000');
  return at < 0 ? key : key.slice(at + 1);
}

function unfield(text: string): string {
  return text.startsWith('"') ? (JSON.parse(text) as string) : text;
}

/** What the format tags of every version begin with. */
const FORMAT_FAMILY = 'oaakit.entity-hashes.';

/**
 * Thrown for a snapshot of an oaakit format other than `ENTITY_HASHES_FORMAT`: written by another
 * version, which this one does not read.
 */
export class OtherSnapshotFormat extends Error {
  constructor(readonly format: string) {
    super(`a snapshot of format ${format}; this version reads ${ENTITY_HASHES_FORMAT} only`);
  }
}

/**
 * The gunzipped bytes of `data`, a chunk at a time, with the ranges of the whole lines in them
 * (`[from, to, from, to, ...]`, line breaks left out): no string is made for a line.
 */
async function* gunzippedLines(data: Buffer): AsyncGenerator<{ bytes: Buffer; lines: number[] }> {
  let carry: Buffer | undefined;
  for await (const chunk of Readable.from([data]).pipe(createGunzip({ chunkSize: 256 * 1024 }))) {
    const bytes = carry === undefined ? (chunk as Buffer) : Buffer.concat([carry, chunk as Buffer]);
    const lines: number[] = [];
    let start = 0;
    for (let nl = bytes.indexOf(0x0a, start); nl >= 0; nl = bytes.indexOf(0x0a, start)) {
      lines.push(start, nl);
      start = nl + 1;
    }
    carry = start < bytes.length ? bytes.subarray(start) : undefined;
    yield { bytes, lines };
  }
  if (carry !== undefined) yield { bytes: carry, lines: [0, carry.length] };
}

/** What the last line of a snapshot tells. */
interface HashLines {
  header: string;
}

/** A whole number of decimal digits in bytes `from` to `to`; NaN if there is none. */
function digitsIn(bytes: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 15) return Number.NaN;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = bytes[i]! - 0x30;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/** The position of the first tab in bytes `from` to `to`, or `to`. */
function tabIn(bytes: Uint8Array, from: number, to: number): number {
  let at = from;
  while (at < to && bytes[at] !== 0x09) at++;
  return at;
}

/**
 * Reads the lines of a snapshot in its gunzipped bytes: after `read` returns true for an entity
 * line (`kind TAB scope TAB own hash TAB key [TAB label]`; a tab byte is never part of a longer
 * UTF-8 character), its kind, scope and own hash are in `kind`, `scope` and `own`, and its key is
 * bytes `keyFrom` to `keyTo`, made a string only when asked (`key()`, `label()`). The other lines
 * (the first, scopes, the last) it takes in itself. Throws with the reason for a line it cannot read.
 */
class LineReader {
  kind: EntityKind = 'applications';
  scope = '';
  own = 0;
  keyFrom = 0;
  keyTo = 0;
  private bytes: Buffer = Buffer.alloc(0);
  private to = 0;
  private started = false;
  private ended = false;
  private readonly scopes: string[] = [];

  constructor(private readonly info: HashLines) {}

  read(bytes: Buffer, from: number, to: number): boolean {
    if (to === from) return false;
    if (!this.started) {
      const { format } = JSON.parse(bytes.toString('utf8', from, to)) as { format?: unknown };
      if (format !== ENTITY_HASHES_FORMAT) {
        if (typeof format === 'string' && format.startsWith(FORMAT_FAMILY))
          throw new OtherSnapshotFormat(format);
        throw new Error(`not an ${ENTITY_HASHES_FORMAT} file`);
      }
      this.started = true;
      return false;
    }
    if (bytes[from + 1] === 0x09 && (bytes[from] === 0x48 || bytes[from] === 0x53)) {
      const text = bytes.toString('utf8', from + 2, to);
      if (bytes[from] === 0x48) {
        // H <TAB> header hash
        this.info.header = text;
        this.ended = true;
      } else this.scopes.push(JSON.parse(text) as string); // S <TAB> scope
      return false;
    }
    const t1 = tabIn(bytes, from, to);
    const t2 = tabIn(bytes, t1 + 1, to);
    const t3 = tabIn(bytes, t2 + 1, to);
    const kind = ENTITY_KINDS[digitsIn(bytes, from, t1)];
    const scope = this.scopes[digitsIn(bytes, t1 + 1, t2)];
    const own = t3 - t2 - 1 === OWN_HASH_LENGTH ? ownIn(bytes, t2 + 1) : Number.NaN;
    if (kind === undefined || scope === undefined || Number.isNaN(own) || t3 >= to)
      throw new Error(`unreadable line ${JSON.stringify(bytes.toString('utf8', from, to).slice(0, 200))}`);
    this.kind = kind;
    this.scope = scope;
    this.own = own;
    this.bytes = bytes;
    this.to = to;
    this.keyFrom = t3 + 1;
    this.keyTo = tabIn(bytes, this.keyFrom, to);
    return true;
  }

  /** Whether the key's bytes spell it as they are, in ASCII (not a JSON string, no other UTF-8). */
  plainKey(): boolean {
    if (this.bytes[this.keyFrom] === 0x22) return false;
    for (let i = this.keyFrom; i < this.keyTo; i++) if (this.bytes[i]! >= 0x80) return false;
    return true;
  }

  key(): string {
    return unfield(this.bytes.toString('utf8', this.keyFrom, this.keyTo));
  }

  /** The label, or what `key` (this line's) reads as when the line has none. */
  label(key: string): string {
    return this.keyTo < this.to
      ? unfield(this.bytes.toString('utf8', this.keyTo + 1, this.to))
      : keyValue(key);
  }

  /** Throws when the file ended before its first or last line. */
  close(): void {
    if (!this.started) throw new Error('the file is empty');
    if (!this.ended) throw new Error('the file ends before its last line (no header hash)');
  }
}

/**
 * The entities of a snapshot, a chunk's worth at a time, with their labels, for the names of
 * removed ones.
 */
async function* hashLineBatches(data: Buffer, info: HashLines): AsyncGenerator<PreviousEntity[]> {
  const reader = new LineReader(info);
  for await (const { bytes, lines } of gunzippedLines(data)) {
    const batch: PreviousEntity[] = [];
    for (let i = 0; i < lines.length; i += 2) {
      if (!reader.read(bytes, lines[i]!, lines[i + 1]!)) continue;
      const key = reader.key();
      batch.push({ kind: reader.kind, scope: reader.scope, key, own: reader.own, label: reader.label(key) });
    }
    yield batch;
  }
  reader.close();
}

/**
 * Adds the entities of a snapshot to `previous`; fills `info`. A plain ASCII key (nearly all) is
 * hashed from its bytes: no string is made for it.
 */
async function addHashLines(data: Buffer, previous: PreviousHashes, info: HashLines): Promise<void> {
  const reader = new LineReader(info);
  for await (const { bytes, lines } of gunzippedLines(data)) {
    for (let i = 0; i < lines.length; i += 2) {
      if (!reader.read(bytes, lines[i]!, lines[i + 1]!)) continue;
      if (reader.plainKey())
        previous.addAscii(reader.kind, reader.scope, bytes, reader.keyFrom, reader.keyTo, reader.own);
      else previous.add(reader.kind, reader.scope, reader.key(), reader.own);
    }
  }
  reader.close();
}

/**
 * Reads a snapshot; throws with the reason when it cannot (`OtherSnapshotFormat` for one of
 * another version). Holds the entities' identities and own hashes (see `PreviousHashes`); their
 * names are read again when asked for: from `reread()` when given (the snapshot's bytes are then
 * let go meanwhile; at bench-app-1,000,000 they are 32 MB), else from `data`.
 */
export async function readEntityHashes(
  data: Buffer,
  reread?: () => Promise<Buffer>,
): Promise<PreviousHashes> {
  const kept = reread === undefined ? data : undefined;
  const previous = new PreviousHashes(async function* () {
    const bytes = kept ?? (await reread!());
    for await (const batch of hashLineBatches(bytes, { header: '' })) yield* batch;
  });
  const info: HashLines = { header: '' };
  await addHashLines(data, previous, info);
  previous.header = info.header;
  return previous;
}
