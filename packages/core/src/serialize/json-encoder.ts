import { isDeepFrozen } from '../internal/frozen.js';
import { containerKind, isOmitted, resolveJsonValue, streamedKind } from './json-values.js';

/**
 * Thrown inside `JsonEncoder.trySync` to abandon an attempt; never leaves this module. One
 * preallocated instance: throwing it costs no stack capture.
 */
const BAIL = new Error('json encoder: value needs streaming');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const HEX = '0123456789abcdef';
/** Nesting depth past which the synchronous path hands over to the streaming walker (which detects cycles). */
const MAX_SYNC_DEPTH = 64;
/** Extra capacity of each block beyond the chunk size, so the value that crosses it rarely needs a copy. */
const HEADROOM = 64 * 1024;
const EMPTY = Buffer.alloc(0);
/** The encoded `"name":` of property names seen, shared by every encoder; bounded. */
const KEY_BYTES = new Map<string, Uint8Array>();
const MAX_KEYS_KEPT = 4096;
/** Frozen objects whose bytes one encoder keeps. */
const MAX_FROZEN_KEPT = 1 << 16;

/**
 * Writes JSON text as UTF-8 straight into byte blocks, with no intermediate strings for the common
 * case (ASCII strings with nothing to escape). The streaming walker (`json-chunks.ts`) calls
 * `trySync` per value; a value that holds an iterable, nests too deep, or would add more than
 * `maxSyncBytes` is rolled back and walked by the caller instead, so the caller can hand out
 * chunks and await in between.
 */
export class JsonEncoder {
  /** Current block; `pos` bytes of it are written. */
  out: Buffer = EMPTY;
  pos = 0;
  private readonly blockSize: number;
  private readonly maxSyncBytes: number;
  private limit = 0;
  /** Bytes of frozen objects written more than once (see `frozen`). */
  private kept: WeakMap<object, Uint8Array> | undefined;
  private keptCount = 0;
  private seenFrozen: WeakSet<object> | undefined;

  constructor(chunkSize: number, maxSyncBytes: number) {
    this.blockSize = chunkSize + HEADROOM;
    this.maxSyncBytes = maxSyncBytes;
  }

  /** Hands out the written bytes; the next write starts a new block (the consumer keeps the old one). */
  take(): Buffer {
    const chunk = this.out.subarray(0, this.pos);
    this.out = EMPTY;
    this.pos = 0;
    return chunk;
  }

  /**
   * Writes a resolved value (`toJSON` already applied, not omitted) completely, or writes nothing
   * and returns false when it has to be streamed.
   */
  trySync(value: unknown): boolean {
    const start = this.pos;
    this.limit = start + this.maxSyncBytes;
    try {
      this.value(value, 0);
      return true;
    } catch (error) {
      if (error !== BAIL) throw error;
      this.pos = start;
      return false;
    }
  }

  /** Writes one ASCII byte such as `[`, `,` or `}`. */
  byte(code: number): void {
    if (this.pos >= this.out.length) this.grow(1);
    this.out[this.pos++] = code;
  }

  /** Writes text known to be ASCII with nothing to escape (literals, numbers). */
  ascii(text: string): void {
    const n = text.length;
    if (this.pos + n > this.out.length) this.grow(n);
    const out = this.out;
    let p = this.pos;
    for (let i = 0; i < n; i++) out[p++] = text.charCodeAt(i);
    this.pos = p;
  }

  /** Writes a quoted JSON string exactly as `JSON.stringify` would, encoded as UTF-8. */
  string(s: string): void {
    const n = s.length;
    if (this.pos + n + 2 > this.out.length) this.grow(n + 2);
    const out = this.out;
    let p = this.pos;
    out[p++] = QUOTE;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c >= 0x80 || c === QUOTE || c === BACKSLASH) {
        this.pos = p;
        this.stringTail(s, i);
        return;
      }
      out[p++] = c;
    }
    out[p++] = QUOTE;
    this.pos = p;
  }

  /**
   * Writes a property name and its colon. Payloads repeat a few dozen names millions of times: their
   * bytes are kept once written and copied in one native call after that.
   */
  key(name: string): void {
    const bytes = KEY_BYTES.get(name);
    if (bytes === undefined) {
      const start = this.pos;
      this.string(name);
      this.byte(COLON);
      if (KEY_BYTES.size < MAX_KEYS_KEPT)
        KEY_BYTES.set(name, Uint8Array.prototype.slice.call(this.out, start, this.pos));
      return;
    }
    const n = bytes.length;
    if (this.pos + n > this.out.length) this.grow(n);
    this.out.set(bytes, this.pos);
    this.pos += n;
  }

  /** The general string path from index `from` on: escapes and multi-byte UTF-8, capacity checked per unit. */
  private stringTail(s: string, from: number): void {
    const n = s.length;
    for (let i = from; i < n; i++) {
      if (this.pos + 12 > this.out.length) this.grow(12);
      const out = this.out;
      let p = this.pos;
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) out[p++] = c;
        else p = escapeAscii(out, p, c);
      } else if (c < 0x800) {
        out[p++] = 0xc0 | (c >> 6);
        out[p++] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        out[p++] = 0xe0 | (c >> 12);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
      } else {
        const d = c <= 0xdbff && i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (d >= 0xdc00 && d <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          out[p++] = 0xf0 | (cp >> 18);
          out[p++] = 0x80 | ((cp >> 12) & 0x3f);
          out[p++] = 0x80 | ((cp >> 6) & 0x3f);
          out[p++] = 0x80 | (cp & 0x3f);
          i++;
        } else {
          p = escapeUnit(out, p, c); // a lone surrogate, escaped as ES2019 JSON.stringify does
        }
      }
      this.pos = p;
    }
    this.byte(QUOTE);
  }

  private value(v: unknown, depth: number): void {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        this.ascii(Number.isFinite(v) ? '' + v : 'null');
        return;
      case 'boolean':
        this.ascii(v ? 'true' : 'false');
        return;
      case 'object':
        if (v === null) this.ascii('null');
        else this.object(v, depth);
        return;
      case 'bigint':
      case 'function':
      case 'symbol':
      case 'undefined':
        // callers filter out omitted values; a BigInt is reported by the walker, with its path
        throw BAIL;
    }
  }

  private object(v: object, depth: number): void {
    if (depth > MAX_SYNC_DEPTH) throw BAIL;
    if (Object.isFrozen(v)) {
      this.frozen(v, depth);
      return;
    }
    this.container(v, depth);
  }

  /**
   * A frozen object that appears again is copied from the bytes written the first time, if nothing
   * in it can change (see `isDeepFrozen`): payloads share such objects between entities, as the
   * builders share one grant object among all identities that hold it.
   */
  private frozen(v: object, depth: number): void {
    const kept = this.kept?.get(v);
    if (kept !== undefined) {
      if (this.pos + kept.length > this.out.length) this.grow(kept.length);
      this.out.set(kept, this.pos);
      this.pos += kept.length;
      return;
    }
    const start = this.pos;
    this.container(v, depth);
    // Kept from the second time on, so that objects seen once cost no copy.
    const seen = (this.seenFrozen ??= new WeakSet());
    if (!seen.has(v)) seen.add(v);
    else if (this.keptCount < MAX_FROZEN_KEPT && isDeepFrozen(v)) {
      this.keptCount++;
      (this.kept ??= new WeakMap()).set(v, Uint8Array.prototype.slice.call(this.out, start, this.pos));
    }
  }

  private container(v: object, depth: number): void {
    if (Array.isArray(v)) {
      this.array(v as unknown[], depth + 1);
      return;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      // class instances, boxed primitives and iterables: rare, handled by the walker
      if (containerKind(v) !== 'record') throw BAIL;
    }
    this.record(v as Record<string, unknown>, depth + 1);
  }

  private array(a: unknown[], depth: number): void {
    this.byte(0x5b);
    const n = a.length;
    for (let i = 0; i < n; i++) {
      if (this.pos > this.limit) throw BAIL;
      if (i !== 0) this.byte(COMMA);
      let x = a[i];
      if (typeof x === 'object' && x !== null) x = resolveJsonValue(x, i);
      if (isOmitted(x)) this.ascii('null');
      else this.value(x, depth);
    }
    this.byte(0x5d);
  }

  private record(o: Record<string, unknown>, depth: number): void {
    this.byte(0x7b);
    let first = true;
    let keys = false;
    for (const k in o) {
      if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
      keys = true;
      if (this.pos > this.limit) throw BAIL;
      let x = o[k];
      if (typeof x === 'object' && x !== null) x = resolveJsonValue(x, k);
      if (isOmitted(x)) continue;
      if (!first) this.byte(COMMA);
      first = false;
      this.key(k);
      this.value(x, depth);
    }
    // An object literal without fields that is iterable (`{ *[Symbol.iterator]() {...} }`) stands
    // for a list: the walker writes it (see `streamedKind`). Asked only here, of objects with no
    // field, because a symbol lookup on every object costs a tenth of the encoder's time.
    if (!keys && streamedKind(o) !== undefined) throw BAIL;
    this.byte(0x7d);
  }

  private grow(need: number): void {
    const bigger = Buffer.allocUnsafe(
      Math.max(this.blockSize, this.out.length * 2, this.pos + need + HEADROOM),
    );
    this.out.copy(bigger, 0, 0, this.pos);
    this.out = bigger;
  }
}

function escapeAscii(out: Buffer, p: number, c: number): number {
  out[p++] = BACKSLASH;
  switch (c) {
    case QUOTE:
    case BACKSLASH:
      out[p++] = c;
      return p;
    case 0x08:
      out[p++] = 0x62; // b
      return p;
    case 0x09:
      out[p++] = 0x74; // t
      return p;
    case 0x0a:
      out[p++] = 0x6e; // n
      return p;
    case 0x0c:
      out[p++] = 0x66; // f
      return p;
    case 0x0d:
      out[p++] = 0x72; // r
      return p;
    default:
      return escapeUnit(out, p - 1, c);
  }
}

/** Writes `\uXXXX` with lowercase hex digits, as JSON.stringify does. */
function escapeUnit(out: Buffer, p: number, c: number): number {
  out[p++] = BACKSLASH;
  out[p++] = 0x75; // u
  out[p++] = HEX.charCodeAt((c >> 12) & 0xf);
  out[p++] = HEX.charCodeAt((c >> 8) & 0xf);
  out[p++] = HEX.charCodeAt((c >> 4) & 0xf);
  out[p++] = HEX.charCodeAt(c & 0xf);
  return p;
}
