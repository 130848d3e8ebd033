/**
 * Writes the snapshot of a push for the next run's diff: one hash per entity, not the payload. A
 * gzip text file of lines: first `{"format":"oaakit.entity-hashes.v5","template":...}`; then,
 * written while the push is serialized, `S<TAB>scope` the first time a scope (the entity an entity
 * sits in) appears, numbered from 0 in order, and per entity
 * `kind index<TAB>scope number<TAB>own hash<TAB>key`, followed by `<TAB>label` only when the label
 * is not what the key reads as; last `H<TAB>header hash`. The kind index is the kind's position in
 * core's `ENTITY_KINDS`; the own hash is core's `EntityHash.own` (52 bits) in 13 hex digits, the
 * number the diff compares. A key or label holding a tab, a line break, a quote or a backslash is
 * written as a JSON string (and so starts with a quote). `entity-hash-reader.ts` reads it back.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ENTITY_KIND_INDEX, HEX_PAIRS } from '@oaakit/core';
import type { EntityHash, EntityKind, Template } from '@oaakit/core';
import type { EntryWriter } from './state-backend.js';

/** Format tag of the first line: the one format this version writes and reads. */
export const ENTITY_HASHES_FORMAT = 'oaakit.entity-hashes.v5';
/** Hex digits of an own hash: its 52 bits. */
export const OWN_HASH_LENGTH = 13;
/** File name suffix of entity-hash snapshots. */
export const ENTITY_HASHES_SUFFIX = '.hashes.gz';
/** Lines are batched into writes of about this many bytes. */
const BATCH_BYTES = 256 * 1024;

/** `text`, or `JSON.stringify(text)` when it holds a tab, a line break, a quote or a backslash. */
function field(text: string): string {
  // A loop over code units: cheaper than a regular expression for the short keys of every entity.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d || c === 0x22 || c === 0x5c) return JSON.stringify(text);
  }
  return text;
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

  /**
   * Writes an own hash (52 bits) as 13 hex digits, a byte's two at a time: its first 32 bits, then
   * its last 20 (one digit, then two bytes).
   */
  private own(own: number): void {
    const high = (own / 0x100000) >>> 0;
    const low = own - high * 0x100000;
    const buf = this.buf;
    let p = this.pos;
    for (let shift = 24; shift >= 0; shift -= 8) {
      const pair = HEX_PAIRS[(high >>> shift) & 0xff]!;
      buf[p++] = pair >>> 8;
      buf[p++] = pair & 0xff;
    }
    buf[p++] = HEX_PAIRS[low >>> 16]! & 0xff;
    for (let shift = 8; shift >= 0; shift -= 8) {
      const pair = HEX_PAIRS[(low >>> shift) & 0xff]!;
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
      this.lastKindIndex = ENTITY_KIND_INDEX.get(entity.kind) ?? -1;
    }
    this.writeDecimal(this.lastKindIndex);
    this.writeDecimal(scope);
    this.own(entity.own);
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
