/**
 * The snapshot of a push for the next run's diff: one hash per entity, not the payload. A gzip
 * text file of lines: first `{"format":"oaakit.entity-hashes.v4","template":...}`; then, written
 * while the push is serialized, `S<TAB>scope` the first time a scope (the entity an entity sits in)
 * appears, numbered from 0 in order, and per entity `kind index<TAB>scope number<TAB>own hash<TAB>key`,
 * followed by `<TAB>label` only when the label is not what the key reads as; last
 * `H<TAB>header hash`. The own hash is the first 64 bits of core's entity hash (format v4: the
 * value hash of `value-hash.ts` for every entity). Files of formats v1 (SHA-256 of the canonical
 * text), v2 (`hash128` of it) and v3 (entities with nested ones hashed as text) are read for their
 * keys and labels, their own hashes not comparable (see `PreviousHashes.comparable`). A key or label holding a tab, a line break, a quote or a
 * backslash is written as a JSON string (and so starts with a quote). Snapshots of earlier versions
 * (`snapshot-*.json.gz`, the gzip payload itself) are read by hashing that payload.
 */
import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip, gunzip } from 'node:zlib';
import { ENTITY_KINDS, entityKey, entityLabel, hashAsRead, jsonChunks } from '@oaakit/core';
import type { EntityHash, EntityKind, JsonObject, Template } from '@oaakit/core';
import type { EntryWriter } from './state-backend.js';
import { KIND_INDEX, PreviousHashes, type PreviousEntity } from './previous-hashes.js';

const gunzipAsync = promisify(gunzip);

/** Format tag of the first line. */
export const ENTITY_HASHES_FORMAT = 'oaakit.entity-hashes.v4';
/**
 * Formats whose own hashes came from an earlier entity hash (v1: SHA-256 of the canonical text,
 * v2: `hash128` of it, v3: the text of entities with nested ones). Read for their keys and labels;
 * their own hashes cannot be compared with today's (see `PreviousHashes.comparable`).
 */
const OLDER_FORMATS = new Set([
  'oaakit.entity-hashes.v1',
  'oaakit.entity-hashes.v2',
  'oaakit.entity-hashes.v3',
]);
/** File name suffix of entity-hash snapshots; `.json.gz` names a snapshot of an earlier version. */
export const ENTITY_HASHES_SUFFIX = '.hashes.gz';
/** Lines are batched into writes of about this many bytes. */
const BATCH_BYTES = 256 * 1024;

/** Hex digits of an own hash. */
export const OWN_HASH_LENGTH = 16;

/** An own hash (16 hex digits) as a number: its first 52 bits, exact in a double; NaN if not hex. */
export function ownNumber(own: string): number {
  const bytes = Buffer.from(own, 'utf8');
  return bytes.length < 13 ? Number.NaN : ownIn(bytes, 0);
}

/** The first 52 bits of the hex digits at `from` (see `ownNumber`); NaN if they are not hex. */
function ownIn(bytes: Uint8Array, from: number): number {
  // Digit by digit: `parseInt(text.slice(0, 13), 16)` costs a string and a parse per entity.
  let n = 0;
  for (let i = from; i < from + 13; i++) {
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

/** `text`, or `JSON.stringify(text)` when it holds a tab, a line break, a quote or a backslash. */
function field(text: string): string {
  // A loop over code units: cheaper than a regular expression for the short keys of every entity.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d || c === 0x22 || c === 0x5c) return JSON.stringify(text);
  }
  return text;
}

/** The two hex digits of each byte, as two character codes in one number (high byte first). */
const HEX_PAIRS = Uint16Array.from({ length: 256 }, (_, b) => {
  const digits = b.toString(16).padStart(2, '0');
  return (digits.charCodeAt(0) << 8) | digits.charCodeAt(1);
});

/** The own hash of `entity` as a number: its first 52 bits, as `ownNumber` reads them from hex. */
export function ownNumberOf(entity: EntityHash): number {
  return entity.ownHigh * 0x100000 + (entity.ownLow >>> 12);
}

function unfield(text: string): string {
  return text.startsWith('"') ? (JSON.parse(text) as string) : text;
}

/** Room kept free at the end of the batch buffer for the fixed part of a line. */
const LINE_ROOM = 64;

/**
 * Writes a snapshot while the push is serialized: `add` is synchronous (it is called as each
 * entity is read); `ready()` resolves when gzip has caught up, so the push can wait on it. Lines
 * are written straight into a byte buffer (no string per line), handed to gzip every
 * `BATCH_BYTES`.
 */
export class EntityHashWriter {
  private readonly gzip = createGzip({ level: 1, chunkSize: 256 * 1024 });
  private readonly done: Promise<void>;
  private buf: Buffer = Buffer.allocUnsafe(BATCH_BYTES + LINE_ROOM);
  private pos = 0;
  private readonly scopes = new Map<string, number>();
  /** The scopes of the last two entities of different scopes, and their numbers. */
  private lastScope: string | undefined;
  private lastScopeNumber = 0;
  private otherScope: string | undefined;
  private otherScopeNumber = 0;
  private lastKind: EntityKind | undefined;
  private lastKindIndex = -1;

  constructor(file: EntryWriter, template: Template) {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        file.write(chunk).then(() => callback(), callback);
      },
    });
    this.done = pipeline(this.gzip, sink);
    this.done.catch(() => undefined); // surfaces through finish()
    this.text(`${JSON.stringify({ format: ENTITY_HASHES_FORMAT, template })}\n`);
  }

  /** Writes `text` as UTF-8, making room for it first. */
  private text(text: string): void {
    if (this.pos + text.length * 3 + LINE_ROOM > this.buf.length) {
      this.flush();
      if (text.length * 3 + LINE_ROOM > this.buf.length)
        this.buf = Buffer.allocUnsafe(text.length * 3 + LINE_ROOM);
    }
    this.pos += this.buf.write(text, this.pos);
  }

  /** Writes a whole number and a tab (the room is there: see `LINE_ROOM`). */
  private writeDecimal(n: number): void {
    const buf = this.buf;
    let p = this.pos;
    if (n >= 0 && n < 10) buf[p++] = 0x30 + n;
    else {
      const digits = String(n);
      for (let i = 0; i < digits.length; i++) buf[p++] = digits.charCodeAt(i);
    }
    buf[p++] = 0x09;
    this.pos = p;
  }

  /** Writes a 32-bit word as 8 hex digits, a byte's two at a time. */
  private hex(w: number): void {
    const buf = this.buf;
    let p = this.pos;
    for (let shift = 24; shift >= 0; shift -= 8) {
      const pair = HEX_PAIRS[(w >>> shift) & 0xff]!;
      buf[p++] = pair >>> 8;
      buf[p++] = pair & 0xff;
    }
    this.pos = p;
  }

  /** The number of `scope`, written on its own line the first time it appears. */
  private scopeNumber(scope: string): number {
    // Entities of one scope come in runs; resources alternate between two (a parent's and its own).
    if (scope === this.lastScope) return this.lastScopeNumber;
    if (scope === this.otherScope) {
      const n = this.otherScopeNumber;
      this.otherScope = this.lastScope;
      this.otherScopeNumber = this.lastScopeNumber;
      this.lastScope = scope;
      this.lastScopeNumber = n;
      return n;
    }
    let n = this.scopes.get(scope);
    if (n === undefined) {
      n = this.scopes.size;
      this.scopes.set(scope, n);
      this.text(`S\t${JSON.stringify(scope)}\n`);
    }
    this.otherScope = this.lastScope;
    this.otherScopeNumber = this.lastScopeNumber;
    this.lastScope = scope;
    this.lastScopeNumber = n;
    return n;
  }

  /** Writes one entity's line. `entity` is read now, not kept. */
  add(entity: EntityHash): void {
    const scope = this.scopeNumber(entity.scope);
    if (this.pos + LINE_ROOM > this.buf.length) this.flush();
    if (entity.kind !== this.lastKind) {
      this.lastKind = entity.kind;
      this.lastKindIndex = KIND_INDEX.get(entity.kind) ?? -1;
    }
    this.writeDecimal(this.lastKindIndex);
    this.writeDecimal(scope);
    this.hex(entity.ownHigh);
    this.hex(entity.ownLow);
    this.buf[this.pos++] = 0x09;
    this.key(entity.keyPrefix, entity.keyValue);
    // Most labels are what the key reads as (`name\0bob` and `bob`): left out, and read back so.
    if (entity.name !== undefined) {
      this.buf[this.pos++] = 0x09;
      this.field(entity.name);
    }
    this.buf[this.pos++] = 0x0a;
    if (this.pos >= BATCH_BYTES) this.flush();
  }

  /** Writes the key `prefix + value` as `field()` spells it, without joining the two while both are plain. */
  private key(prefix: string, value: string): void {
    const start = this.pos;
    if (this.writeIfPlain(prefix) && this.writeIfPlain(value)) return;
    this.pos = start;
    this.field(prefix + value);
  }

  /**
   * Writes `text` byte by byte if it is plain ASCII (no tab, line break, quote or backslash) and
   * fits with room to spare; else writes nothing and returns false.
   */
  private writeIfPlain(text: string): boolean {
    const n = text.length;
    if (this.pos + n + LINE_ROOM > this.buf.length) return false;
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x22 || c === 0x5c) return false;
      buf[p++] = c;
    }
    this.pos = p;
    return true;
  }

  /**
   * Writes a key or label as `field()` spells it: byte by byte while it is plain ASCII (nearly
   * always), else as UTF-8 or a JSON string. Leaves room for the two bytes that may follow.
   */
  private field(text: string): void {
    if (this.pos + text.length + LINE_ROOM > this.buf.length) this.flush();
    if (this.writeIfPlain(text)) return;
    this.text(field(text));
  }

  private flush(): void {
    if (this.pos === 0) return;
    this.gzip.write(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(BATCH_BYTES + LINE_ROOM);
    this.pos = 0;
  }

  /** Resolves once gzip has room again. */
  async ready(): Promise<void> {
    if (this.gzip.writableNeedDrain) await once(this.gzip, 'drain');
  }

  /**
   * Writes the rest, ending with the payload's `header` hash, and waits until every byte is in the
   * file (which the caller then commits).
   */
  async finish(header: string): Promise<void> {
    this.text(`H\t${header}\n`);
    this.flush();
    this.gzip.end();
    await this.done;
  }

  /** Stops writing; the caller discards the file. */
  abort(): void {
    this.gzip.destroy();
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

/** What the first and last lines of a snapshot tell. */
interface HashLines {
  comparable: boolean;
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
      const first = JSON.parse(bytes.toString('utf8', from, to)) as { format?: unknown };
      const older = typeof first.format === 'string' && OLDER_FORMATS.has(first.format);
      if (first.format !== ENTITY_HASHES_FORMAT && !older)
        throw new Error(`not an ${ENTITY_HASHES_FORMAT} file`);
      this.info.comparable = !older;
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
 * The entities of a snapshot of format v1-v4, a chunk's worth at a time, with their labels, for
 * the names of removed ones.
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
 * The entities of a payload snapshot written by an earlier version (the gzip JSON payload), by
 * hashing that payload.
 */
async function payloadFileEntities(
  data: Buffer,
  template: Template,
): Promise<{ header: string; entities: PreviousEntity[] }> {
  const payload = JSON.parse((await gunzipAsync(data)).toString('utf8')) as JsonObject;
  const entities: PreviousEntity[] = [];
  const hashed = hashAsRead(template, payload, (e) =>
    entities.push({
      kind: e.kind,
      scope: e.scope,
      key: entityKey(e),
      own: ownNumberOf(e),
      label: entityLabel(e),
    }),
  );
  for await (const chunk of jsonChunks(hashed.value)) void chunk;
  return { header: hashed.header, entities };
}

/**
 * Reads a snapshot of either format, told apart by its entry name; throws with the reason when it
 * cannot. Holds the entities' identities and own hashes (see `PreviousHashes`); their names are
 * read again when asked for: from `reread()` when given (the snapshot's bytes are then let go
 * meanwhile; at bench-app-1,000,000 they are 32 MB), else from `data`.
 */
export async function readEntityHashes(
  name: string,
  data: Buffer,
  template: Template,
  reread?: () => Promise<Buffer>,
): Promise<PreviousHashes> {
  if (!name.endsWith(ENTITY_HASHES_SUFFIX)) {
    // An upgrade's one-time path: the payload is hashed, and its entities kept for their names.
    const { header, entities } = await payloadFileEntities(data, template);
    const previous = new PreviousHashes(() => entities);
    for (const e of entities) previous.add(e.kind, e.scope, e.key, e.own);
    previous.header = header;
    return previous;
  }
  const kept = reread === undefined ? data : undefined;
  const previous = new PreviousHashes(async function* () {
    const bytes = kept ?? (await reread!());
    for await (const batch of hashLineBatches(bytes, { comparable: true, header: '' })) yield* batch;
  });
  const info: HashLines = { comparable: true, header: '' };
  await addHashLines(data, previous, info);
  previous.comparable = info.comparable;
  previous.header = info.header;
  return previous;
}
