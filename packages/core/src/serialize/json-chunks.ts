import { setImmediate as macrotaskTurn } from 'node:timers/promises';
import { OaaError } from '../errors.js';
import { JsonEncoder } from './json-encoder.js';
import { containerKind, isOmitted, resolveJsonValue, unbox } from './json-values.js';

/** Default size of the chunks `jsonChunks` yields: one gzip thread-pool job each. */
export const DEFAULT_JSON_CHUNK_SIZE = 1024 * 1024;
/** Default bytes between event-loop turns, and the most one value may add before it is walked item by item. */
const DEFAULT_YIELD_BYTES = 64 * 1024;
const COMMA = 0x2c;

export interface JsonChunksOptions {
  /** Bytes per chunk (default 1 MiB). Every chunk but the last holds at least this many bytes. */
  chunkSize?: number;
  /**
   * Bytes written between turns given to the event loop while a chunk fills (default 64 KiB; 0 for
   * none), so that I/O callbacks run during a long serialization. The payload pipeline relies on it:
   * gzip starts its next thread-pool job only from a callback on this thread.
   */
  yieldEveryBytes?: number;
  /**
   * Bytes one value may add in a single synchronous step before it is walked item by item instead
   * (default 64 KiB). Bounds the time between chances to yield.
   */
  maxSyncBytes?: number;
}

/**
 * Serializes a value to JSON as a stream of UTF-8 chunks whose concatenation is byte-identical to
 * `Buffer.from(JSON.stringify(value))`, without ever building the text as one string. Wherever an
 * array may stand, an `Iterable` or `AsyncIterable` (not a string) may stand instead: it is written
 * as an array, item by item, as the consumer pulls chunks.
 *
 * Differences from `JSON.stringify`: every non-array iterable (`Set`, `Map`, typed arrays,
 * generators) is an array here; a value that `JSON.stringify` cannot write (BigInt, a circular
 * reference, an undefined root) throws an `OaaError` with code `PAYLOAD_NOT_SERIALIZABLE` and the
 * path of the value. Getters and `toJSON` may run twice for values near a chunk boundary or holding
 * iterables, so they should be free of side effects.
 *
 * @example
 * for await (const chunk of jsonChunks({ applications: [{ name: 'x', local_users: usersFromApi() }] })) sink.write(chunk);
 */
export async function* jsonChunks(
  value: unknown,
  options: JsonChunksOptions = {},
): AsyncGenerator<Buffer, void, undefined> {
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_JSON_CHUNK_SIZE));
  const encoder = new JsonEncoder(chunkSize, options.maxSyncBytes ?? DEFAULT_YIELD_BYTES);
  const root = resolve(value, '');
  if (isOmitted(root)) throw notSerializable('the payload is undefined, a function or a symbol', undefined);
  if (!encoder.trySync(root)) {
    const walker = new Walker(encoder, chunkSize, options.yieldEveryBytes ?? DEFAULT_YIELD_BYTES);
    yield* walker.container(root as object | bigint, undefined);
  }
  if (encoder.pos > 0) yield encoder.take();
}

/** A position in the value, kept as a linked list so building it costs nothing until an error names it. */
interface Path {
  readonly parent: Path | undefined;
  readonly key: string | number;
}

/** Writes the containers the encoder could not write in one go, yielding full chunks in between. */
class Walker {
  private readonly ancestors = new Set<object>();
  /** Position in the current block at which to hand out a chunk or give the event loop a turn. */
  private checkpoint: number;

  constructor(
    private readonly encoder: JsonEncoder,
    private readonly chunkSize: number,
    private readonly yieldEveryBytes: number,
  ) {
    this.checkpoint = this.nextCheckpoint();
  }

  async *container(x: object | bigint, path: Path | undefined): AsyncGenerator<Buffer, void, undefined> {
    if (typeof x === 'bigint') throw notSerializable('a BigInt value', path);
    const kind = containerKind(x);
    if (kind === 'boxed') {
      const primitive = unbox(x);
      if (typeof primitive === 'bigint') throw notSerializable('a BigInt value', path);
      this.encoder.trySync(primitive);
      return;
    }
    if (this.ancestors.has(x)) throw notSerializable('a circular reference', path);
    this.ancestors.add(x);
    try {
      switch (kind) {
        case 'array':
          yield* this.array(x as readonly unknown[], path);
          break;
        case 'iterable':
          yield* this.iterable(x as Iterable<unknown>, path);
          break;
        case 'async-iterable':
          yield* this.asyncIterable(x as AsyncIterable<unknown>, path);
          break;
        case 'record':
          yield* this.record(x as Record<string, unknown>, path);
          break;
      }
    } finally {
      this.ancestors.delete(x);
    }
  }

  private async *array(
    a: readonly unknown[],
    path: Path | undefined,
  ): AsyncGenerator<Buffer, void, undefined> {
    const encoder = this.encoder;
    encoder.byte(0x5b);
    for (let i = 0; i < a.length; i++) {
      if (i !== 0) encoder.byte(COMMA);
      const rest = this.item(a[i], i);
      if (rest !== undefined) yield* this.container(rest, { parent: path, key: i });
      if (encoder.pos >= this.checkpoint) yield* this.pause();
    }
    encoder.byte(0x5d);
  }

  private async *iterable(
    items: Iterable<unknown>,
    path: Path | undefined,
  ): AsyncGenerator<Buffer, void, undefined> {
    const encoder = this.encoder;
    encoder.byte(0x5b);
    let i = 0;
    for (const raw of items) {
      if (i !== 0) encoder.byte(COMMA);
      const rest = this.item(raw, i);
      if (rest !== undefined) yield* this.container(rest, { parent: path, key: i });
      if (encoder.pos >= this.checkpoint) yield* this.pause();
      i++;
    }
    encoder.byte(0x5d);
  }

  private async *asyncIterable(
    items: AsyncIterable<unknown>,
    path: Path | undefined,
  ): AsyncGenerator<Buffer, void, undefined> {
    const encoder = this.encoder;
    encoder.byte(0x5b);
    let i = 0;
    for await (const raw of items) {
      if (i !== 0) encoder.byte(COMMA);
      const rest = this.item(raw, i);
      if (rest !== undefined) yield* this.container(rest, { parent: path, key: i });
      if (encoder.pos >= this.checkpoint) yield* this.pause();
      i++;
    }
    encoder.byte(0x5d);
  }

  private async *record(
    o: Record<string, unknown>,
    path: Path | undefined,
  ): AsyncGenerator<Buffer, void, undefined> {
    const encoder = this.encoder;
    encoder.byte(0x7b);
    let first = true;
    for (const key of Object.keys(o)) {
      const x = resolve(o[key], key);
      if (isOmitted(x)) continue;
      if (!first) encoder.byte(COMMA);
      first = false;
      encoder.key(key);
      if (!encoder.trySync(x)) yield* this.container(x as object | bigint, { parent: path, key });
      if (encoder.pos >= this.checkpoint) yield* this.pause();
    }
    encoder.byte(0x7d);
  }

  /** Hands out a full chunk, or gives the event loop a turn. */
  private async *pause(): AsyncGenerator<Buffer, void, undefined> {
    if (this.encoder.pos >= this.chunkSize) yield this.encoder.take();
    else await macrotaskTurn();
    this.checkpoint = this.nextCheckpoint();
  }

  private nextCheckpoint(): number {
    const turn = this.encoder.pos + this.yieldEveryBytes;
    return this.yieldEveryBytes > 0 && turn < this.chunkSize ? turn : this.chunkSize;
  }

  /** Writes one array item; returns it (resolved) when it has to be streamed instead. */
  private item(raw: unknown, index: number): object | bigint | undefined {
    const x = resolve(raw, index);
    if (isOmitted(x)) {
      this.encoder.ascii('null');
      return undefined;
    }
    return this.encoder.trySync(x) ? undefined : (x as object | bigint);
  }
}

function resolve(raw: unknown, key: string | number): unknown {
  return (typeof raw === 'object' && raw !== null) || typeof raw === 'bigint'
    ? resolveJsonValue(raw, key)
    : raw;
}

function notSerializable(what: string, path: Path | undefined): OaaError {
  const where = formatPath(path);
  return new OaaError(`cannot serialize ${what} at ${where === '' ? 'the root' : where} as JSON`, {
    code: 'PAYLOAD_NOT_SERIALIZABLE',
    details: { path: where },
    hints: ['payload values must be JSON values; arrays may also be iterables or async iterables'],
  });
}

/** `applications[0].local_users[3]` */
function formatPath(path: Path | undefined): string {
  let out = '';
  for (let p = path; p !== undefined; p = p.parent) {
    const key = p.key;
    if (typeof key === 'number') out = `[${key}]${out}`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out = `${p.parent === undefined ? '' : '.'}${key}${out}`;
    else out = `[${JSON.stringify(key)}]${out}`;
  }
  return out;
}
