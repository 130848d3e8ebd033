/**
 * The snapshot of a push for the next run's diff: one hash per entity, not the payload. A gzip
 * text file of lines: first `{"format":"oaakit.entity-hashes.v3","template":...}`; then, written
 * while the push is serialized, `S<TAB>scope` the first time a scope (the entity an entity sits in)
 * appears, numbered from 0 in order, and per entity `kind index<TAB>scope number<TAB>own hash<TAB>key`,
 * followed by `<TAB>label` only when the label is not what the key reads as; last
 * `H<TAB>header hash`. The own hash is the first 64 bits of core's entity hash (format v3: the
 * value hash of `value-hash.ts`). Files of formats v1 (SHA-256 of the canonical text) and v2
 * (`hash128` of it) are read for their keys and labels, their own hashes not comparable (see
 * `PreviousHashes.comparable`). A key or label holding a tab, a line break, a quote or a
 * backslash is written as a JSON string (and so starts with a quote). Snapshots of earlier versions
 * (`snapshot-*.json.gz`, the gzip payload itself) are read by hashing that payload.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip, gunzip } from 'node:zlib';
import { ENTITY_KINDS, hashAsRead, jsonChunks } from '@oaakit/core';
import type { EntityHash, EntityKind, JsonObject, Template } from '@oaakit/core';
import type { EntryWriter } from './state-backend.js';

const gunzipAsync = promisify(gunzip);

/** Format tag of the first line. */
export const ENTITY_HASHES_FORMAT = 'oaakit.entity-hashes.v3';
/**
 * Formats whose own hashes came from an earlier entity hash (v1: SHA-256 of the canonical text,
 * v2: `hash128` of it). Read for their keys and labels; their own hashes cannot be compared with
 * today's (see `PreviousHashes.comparable`).
 */
const OLDER_FORMATS = new Set(['oaakit.entity-hashes.v1', 'oaakit.entity-hashes.v2']);
/** File name suffix of entity-hash snapshots; `.json.gz` names a snapshot of an earlier version. */
export const ENTITY_HASHES_SUFFIX = '.hashes.gz';
/** Lines are batched into writes of about this many bytes. */
const BATCH_BYTES = 256 * 1024;

/**
 * The entities of the last push, held while a run reads the new payload: per entity a key and a
 * number, about 100 bytes (bench-app-200,000, 460,000 entities: 45 MB).
 */
export interface PreviousHashes {
  /** Hash of the last push's header (top-level fields that are not entity collections). */
  header: string;
  /** Kind -> scope -> key -> own hash (see `ownNumber`). */
  byKind: Map<EntityKind, Map<string, Map<string, number>>>;
  /** Labels that are not the key's value as it reads (a name with capitals), by `labelKey`. */
  labels: Map<string, string>;
  /**
   * False for a snapshot written with an earlier entity hash (formats v1 and v2): its own hashes
   * say nothing about today's, so the diff tells added and removed entities (by key) but counts
   * none as changed. The next snapshot is comparable again.
   */
  comparable: boolean;
}

/** Hex digits of an own hash. */
export const OWN_HASH_LENGTH = 16;

/** An own hash (16 hex digits) as a number: its first 52 bits, exact in a double. */
export function ownNumber(own: string): number {
  return parseInt(own.slice(0, 13), 16);
}

/** The key of an entity's label in `PreviousHashes.labels`. */
export function labelKey(kind: EntityKind, scope: string, key: string): string {
  return `${kind}\u0002${scope}\u0002${key}`;
}

/** What a key reads as: the value after the key field's name (`name\0bob` -> `bob`), or the key. */
function keyValue(key: string): string {
  const at = key.indexOf('\u0000');
  return at < 0 ? key : key.slice(at + 1);
}

/** The label of an entity of the last push: its name as written, else its key's value. */
export function previousLabel(
  previous: PreviousHashes,
  kind: EntityKind,
  scope: string,
  key: string,
): string {
  return previous.labels.get(labelKey(kind, scope, key)) ?? keyValue(key);
}

/** Whether `label` is what `key` reads as (`keyValue(key) === label`), without cutting the key. */
function readsAs(key: string, label: string): boolean {
  const at = key.indexOf('\u0000');
  return key.length - at - 1 === label.length && key.endsWith(label);
}

/** A flat copy of `text`, which does not keep alive the line it was cut from. */
function own(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}

function store(
  into: PreviousHashes,
  kind: EntityKind,
  scope: string,
  key: string,
  hash: string,
  label: string,
): void {
  let scopes = into.byKind.get(kind);
  if (scopes === undefined) into.byKind.set(kind, (scopes = new Map<string, Map<string, number>>()));
  let keys = scopes.get(scope);
  if (keys === undefined) scopes.set(scope, (keys = new Map<string, number>()));
  const k = own(key);
  keys.set(k, ownNumber(hash));
  if (label !== keyValue(key)) into.labels.set(labelKey(kind, scope, k), own(label));
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

/** Index of each kind in `ENTITY_KINDS`, as the snapshot writes it. */
const KIND_INDEX = new Map(ENTITY_KINDS.map((kind, i) => [kind, i]));

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
  private buf = Buffer.allocUnsafe(BATCH_BYTES + LINE_ROOM);
  private pos = 0;
  private readonly scopes = new Map<string, number>();

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

  /** Writes a small whole number and a tab (the room is there: see `LINE_ROOM`). */
  private count(n: number): void {
    const digits = String(n);
    for (let i = 0; i < digits.length; i++) this.buf[this.pos++] = digits.charCodeAt(i);
    this.buf[this.pos++] = 0x09;
  }

  add(entity: EntityHash): void {
    let scope = this.scopes.get(entity.scope);
    if (scope === undefined) {
      scope = this.scopes.size;
      this.scopes.set(entity.scope, scope);
      this.text(`S\t${JSON.stringify(entity.scope)}\n`);
    }
    if (this.pos + LINE_ROOM > this.buf.length) this.flush();
    this.count(KIND_INDEX.get(entity.kind) ?? -1);
    this.count(scope);
    const own = entity.own;
    for (let i = 0; i < own.length; i++) this.buf[this.pos++] = own.charCodeAt(i);
    this.buf[this.pos++] = 0x09;
    this.field(entity.key);
    // Most labels are what the key reads as (`name\0bob` and `bob`): left out, and read back so.
    if (!readsAs(entity.key, entity.label)) {
      this.buf[this.pos++] = 0x09;
      this.field(entity.label);
    }
    this.buf[this.pos++] = 0x0a;
    if (this.pos >= BATCH_BYTES) this.flush();
  }

  /**
   * Writes a key or label as `field()` spells it: byte by byte while it is plain ASCII (nearly
   * always), else as UTF-8 or a JSON string. Leaves room for the two bytes that may follow.
   */
  private field(text: string): void {
    const n = text.length;
    if (this.pos + n + LINE_ROOM > this.buf.length) this.flush();
    if (n + LINE_ROOM <= this.buf.length) {
      const start = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x22 || c === 0x5c) break;
        this.buf[this.pos++] = c;
      }
      if (i === n) return;
      this.pos = start;
    }
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

async function readHashLines(data: Buffer): Promise<PreviousHashes> {
  const lines = createInterface({ input: Readable.from([data]).pipe(createGunzip()), crlfDelay: Infinity });
  let previous: PreviousHashes | undefined;
  let header: string | undefined;
  const scopes: string[] = [];
  for await (const line of lines) {
    if (line === '') continue;
    if (previous === undefined) {
      const head = JSON.parse(line) as { format?: unknown };
      const older = typeof head.format === 'string' && OLDER_FORMATS.has(head.format);
      if (head.format !== ENTITY_HASHES_FORMAT && !older)
        throw new Error(`not an ${ENTITY_HASHES_FORMAT} file`);
      previous = { header: '', byKind: new Map(), labels: new Map(), comparable: !older };
      continue;
    }
    if (line.startsWith('H\t')) {
      header = line.slice(2);
      continue;
    }
    if (line.startsWith('S\t')) {
      scopes.push(JSON.parse(line.slice(2)) as string);
      continue;
    }
    const [kind, scope, hash, key, label] = line.split('\t');
    const kindName = ENTITY_KINDS[Number(kind)];
    const scopeName = scopes[Number(scope)];
    if (kindName === undefined || scopeName === undefined || hash?.length !== OWN_HASH_LENGTH)
      throw new Error(`unreadable line ${JSON.stringify(line.slice(0, 200))}`);
    const keyText = unfield(key ?? '');
    store(
      previous,
      kindName,
      scopeName,
      keyText,
      hash,
      label === undefined ? keyValue(keyText) : unfield(label),
    );
  }
  if (previous === undefined) throw new Error('the file is empty');
  if (header === undefined) throw new Error('the file ends before its last line (no header hash)');
  previous.header = header;
  return previous;
}

/** The hashes of a payload snapshot written by an earlier version (the gzip JSON payload). */
async function hashPayloadFile(data: Buffer, template: Template): Promise<PreviousHashes> {
  const payload = JSON.parse((await gunzipAsync(data)).toString('utf8')) as JsonObject;
  const previous: PreviousHashes = { header: '', byKind: new Map(), labels: new Map(), comparable: true };
  const hashed = hashAsRead(template, payload, (e) =>
    store(previous, e.kind, e.scope, e.key, e.own, e.label),
  );
  for await (const chunk of jsonChunks(hashed.value)) void chunk;
  previous.header = hashed.header;
  return previous;
}

/**
 * Reads a snapshot of either format, told apart by its entry name; throws with the reason when it
 * cannot.
 */
export async function readEntityHashes(
  name: string,
  data: Buffer,
  template: Template,
): Promise<PreviousHashes> {
  return name.endsWith(ENTITY_HASHES_SUFFIX) ? readHashLines(data) : hashPayloadFile(data, template);
}
