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
import { StringDecoder } from 'node:string_decoder';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip, gunzip } from 'node:zlib';
import { ENTITY_KINDS, entityKey, entityLabel, hashAsRead, jsonChunks } from '@oaakit/core';
import type { EntityHash, EntityKind, JsonObject, Template } from '@oaakit/core';
import type { EntryWriter } from './state-backend.js';
import { PreviousHashes, type PreviousEntity } from './previous-hashes.js';

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
  // Digit by digit: `parseInt(own.slice(0, 13), 16)` costs a string and a parse per entity.
  let n = 0;
  for (let i = 0; i < 13; i++) {
    const c = own.charCodeAt(i);
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

/** Index of each kind in `ENTITY_KINDS`, as the snapshot writes it. */
const KIND_INDEX = new Map(ENTITY_KINDS.map((kind, i) => [kind, i]));

function unfield(text: string): string {
  return text.startsWith('"') ? (JSON.parse(text) as string) : text;
}

/** Batch buffers kept for use again at most. */
const MAX_SPARE = 8;
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
  /** Batch buffers gzip has finished with. */
  private readonly spare: Buffer[] = [];
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
  private count(n: number): void {
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
    this.count(this.lastKindIndex);
    this.count(scope);
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
    if (this.plain(prefix) && this.plain(value)) return;
    this.pos = start;
    this.field(prefix + value);
  }

  /**
   * Writes `text` byte by byte if it is plain ASCII (no tab, line break, quote or backslash) and
   * fits with room to spare; else writes nothing and returns false.
   */
  private plain(text: string): boolean {
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
    if (this.plain(text)) return;
    this.text(field(text));
  }

  private flush(): void {
    if (this.pos === 0) return;
    const full = this.buf;
    // gzip is done with a batch once its write calls back: the buffer is used again, so that a
    // snapshot of 100 MB of lines does not allocate 100 MB of buffers (and the collections that
    // much outside memory sets off).
    this.gzip.write(full.subarray(0, this.pos), () => {
      if (full.length === BATCH_BYTES + LINE_ROOM && this.spare.length < MAX_SPARE) this.spare.push(full);
    });
    this.buf = this.spare.pop() ?? Buffer.allocUnsafe(BATCH_BYTES + LINE_ROOM);
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

/** The lines of gzip `data`, decoded as UTF-8, a chunk's worth at a time. */
async function* gzipLines(data: Buffer): AsyncGenerator<string[]> {
  let carry = '';
  const decoder = new StringDecoder('utf8');
  for await (const chunk of Readable.from([data]).pipe(createGunzip({ chunkSize: 256 * 1024 }))) {
    const lines = (carry + decoder.write(chunk as Buffer)).split('\n');
    carry = lines.pop()!;
    yield lines;
  }
  const rest = carry + decoder.end();
  if (rest !== '') yield [rest];
}

/** What the first and last lines of a snapshot tell. */
interface HashLines {
  comparable: boolean;
  header: string;
}

/** A whole number of decimal digits in `line` from `from` to `to`; NaN if there is none. */
function digitsAt(line: string, from: number, to: number): number {
  if (to <= from || to - from > 15) return Number.NaN;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = line.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Reads the lines of a snapshot one at a time, without splitting them into fields: after
 * `read(line)` returns true, the entity's fields are in `kind`, `scope`, `key`, `own` (and
 * `label` when labels are wanted). Other lines (the first, scopes, the last) it takes in itself.
 * Throws with the reason for a line it cannot read.
 */
class LineReader {
  kind: EntityKind = 'applications';
  scope = '';
  key = '';
  own = 0;
  label = '';
  started = false;
  ended = false;
  private readonly scopes: string[] = [];

  constructor(
    private readonly withLabels: boolean,
    private readonly info: HashLines,
  ) {}

  read(line: string): boolean {
    if (line === '') return false;
    if (!this.started) {
      const first = JSON.parse(line) as { format?: unknown };
      const older = typeof first.format === 'string' && OLDER_FORMATS.has(first.format);
      if (first.format !== ENTITY_HASHES_FORMAT && !older)
        throw new Error(`not an ${ENTITY_HASHES_FORMAT} file`);
      this.info.comparable = !older;
      this.started = true;
      return false;
    }
    if (line.charCodeAt(1) === 0x09) {
      if (line.startsWith('H\t')) {
        this.info.header = line.slice(2);
        this.ended = true;
        return false;
      }
      if (line.startsWith('S\t')) {
        this.scopes.push(JSON.parse(line.slice(2)) as string);
        return false;
      }
    }
    // kind <TAB> scope <TAB> own hash <TAB> key [<TAB> label]
    const t1 = line.indexOf('\t');
    const t2 = t1 < 0 ? -1 : line.indexOf('\t', t1 + 1);
    const t3 = t2 < 0 ? -1 : line.indexOf('\t', t2 + 1);
    const kind = ENTITY_KINDS[digitsAt(line, 0, t1)];
    const scope = this.scopes[digitsAt(line, t1 + 1, t2)];
    const own = t3 - t2 - 1 === OWN_HASH_LENGTH ? ownNumber(line.slice(t2 + 1, t3)) : Number.NaN;
    if (kind === undefined || scope === undefined || Number.isNaN(own))
      throw new Error(`unreadable line ${JSON.stringify(line.slice(0, 200))}`);
    const t4 = line.indexOf('\t', t3 + 1);
    this.kind = kind;
    this.scope = scope;
    this.own = own;
    this.key = unfield(t4 < 0 ? line.slice(t3 + 1) : line.slice(t3 + 1, t4));
    if (this.withLabels) this.label = t4 < 0 ? keyValue(this.key) : unfield(line.slice(t4 + 1));
    return true;
  }

  /** The scope numbered `n` by a line read before, if any. */
  scopeAt(n: number): string | undefined {
    return this.scopes[n];
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
  const reader = new LineReader(true, info);
  for await (const lines of gzipLines(data)) {
    const batch: PreviousEntity[] = [];
    for (const line of lines) {
      if (!reader.read(line)) continue;
      const { kind, scope, key, own, label } = reader;
      batch.push({ kind, scope, key, own, label });
    }
    yield batch;
  }
  reader.close();
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

/** The first 52 bits of 16 hex digits at `from` (see `ownNumber`); NaN if they are not hex. */
function ownIn(bytes: Uint8Array, from: number): number {
  let n = 0;
  for (let i = from; i < from + 13; i++) {
    const c = bytes[i]!;
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (d < 0) return Number.NaN;
    n = n * 16 + d;
  }
  return n;
}

/**
 * Adds the entities of a snapshot to `previous`; fills `info`. The gunzipped bytes are read as
 * they are: an entity line of plain ASCII (nearly all) is parsed in place, its key hashed from its
 * bytes, with no string made for the line or the key; any other line goes through `LineReader`.
 */
async function addHashLines(data: Buffer, previous: PreviousHashes, info: HashLines): Promise<void> {
  const reader = new LineReader(false, info);
  /** One line, bytes `from` to `to` (the line break excluded). */
  const line = (bytes: Buffer, from: number, to: number): void => {
    if (reader.started && addAsciiLine(bytes, from, to)) return;
    if (reader.read(bytes.toString('utf8', from, to)))
      previous.add(reader.kind, reader.scope, reader.key, reader.own);
  };
  /**
   * An entity line `kind TAB scope TAB own TAB key [TAB label]` whose key is plain ASCII (not a
   * JSON string), added at once; false for any other line.
   */
  const addAsciiLine = (bytes: Buffer, from: number, to: number): boolean => {
    let t1 = from;
    while (t1 < to && bytes[t1] !== 0x09) t1++;
    let t2 = t1 + 1;
    while (t2 < to && bytes[t2] !== 0x09) t2++;
    const t3 = t2 + 1 + OWN_HASH_LENGTH;
    if (t3 >= to || bytes[t3] !== 0x09 || bytes[t3 + 1] === 0x22) return false;
    // The key ends at the label's tab, if there is a label (not needed here).
    let end = t3 + 1;
    for (; end < to; end++) {
      const c = bytes[end]!;
      if (c === 0x09) break;
      if (c >= 0x80 || c === 0x5c) return false;
    }
    const kind = ENTITY_KINDS[digitsIn(bytes, from, t1)];
    const scope = reader.scopeAt(digitsIn(bytes, t1 + 1, t2));
    const own = ownIn(bytes, t2 + 1);
    if (kind === undefined || scope === undefined || Number.isNaN(own)) return false;
    previous.addAscii(kind, scope, bytes, t3 + 1, end, own);
    return true;
  };
  let carry: Buffer | undefined;
  for await (const chunk of Readable.from([data]).pipe(createGunzip({ chunkSize: 256 * 1024 }))) {
    const bytes = carry === undefined ? (chunk as Buffer) : Buffer.concat([carry, chunk as Buffer]);
    let start = 0;
    for (let nl = bytes.indexOf(0x0a, start); nl >= 0; nl = bytes.indexOf(0x0a, start)) {
      if (nl > start) line(bytes, start, nl);
      start = nl + 1;
    }
    carry = start < bytes.length ? bytes.subarray(start) : undefined;
  }
  if (carry !== undefined) line(carry, 0, carry.length);
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
