/**
 * What the kit watches during a run, without changing what the connector or the runner do:
 * requests through `ctx.http` (the kit's fetch sits under it), calls of `ctx.progress` and
 * `ctx.state.set`, and the reads of the payload's streamed collections.
 *
 * Streamed collections (core's `streamedKind`: what the serializer reads item by item) are found
 * by walking what `extract` returned, before the runner sees it. Each gets an own-property
 * iterator method (`[Symbol.iterator]` or `[Symbol.asyncIterator]`, whichever the runner reads it
 * with) that counts the reads and the items, then calls the collection's own. A one-shot iterable
 * (a generator object, whose iterator method returns itself) is patched on the instance, so a
 * second read from anywhere, the connector's own lazy derived collections included, goes through
 * the patch and is counted; its `next` is patched too, to count the items. A collection that
 * cannot be patched (frozen) is listed as not watched.
 */
import { streamedKind } from '@oaakit/core';
import type { ConnectorContext, ConnectorState, ProgressReporter } from '@oaakit/core';

/** Reads of one streamed collection of the payload. */
export interface CollectionReads {
  /** Where it sits in the payload, e.g. `applications[0].local_users`. */
  path: string;
  /** Times its iterator method was called. */
  reads: number;
  items: number;
  /** Its iterator method returned the collection itself: a second read gets what the first left. */
  oneShot: boolean;
  /** False when it could not be watched (a frozen object). */
  watched: boolean;
}

/** The first sign that a run is under way: what the cancels check aborts on. */
export type ProgressSign = 'a ctx.http request' | 'a ctx.progress call' | 'a streamed item read';

/** What one run did, as the kit saw it. */
export class RunProbe {
  requests = 0;
  streamedItems = 0;
  progressCalls = 0;
  stateSets = 0;
  /** Whether `extract` itself returned (its streamed collections may still be read after). */
  extractReturned = false;
  readonly collections: CollectionReads[] = [];
  /** The first sign of progress, once there was one. */
  sign: ProgressSign | undefined;
  /** Process RSS when the run started and its highest sample since, in bytes. */
  readonly startRss = process.memoryUsage.rss();
  peakRss = this.startRss;
  private readonly stateKeys = new Set<string>();
  private stateOf: ConnectorState | undefined;

  constructor(private readonly onSign?: (sign: ProgressSign) => void) {}

  /** Samples RSS now. */
  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peakRss) this.peakRss = rss;
  }

  /** Notes a sign of progress; the first one is passed on. */
  signal(sign: ProgressSign): void {
    this.sample();
    if (this.sign !== undefined) return;
    this.sign = sign;
    this.onSign?.(sign);
  }

  /** The keys the connector set and their values in the runner's `ctx.state`, after the run. */
  stateValues(saved: Record<string, unknown>): Record<string, unknown> {
    const values: Record<string, unknown> = structuredClone(saved);
    for (const key of this.stateKeys) {
      const value = this.stateOf?.get(key);
      if (value === undefined) delete values[key];
      else values[key] = structuredClone(value);
    }
    return values;
  }

  /** The context the connector receives: the runner's, with `progress` and `state` watched. */
  watchContext<C, S extends string>(ctx: ConnectorContext<C, S>): ConnectorContext<C, S> {
    const progress: ProgressReporter = {
      start: (phase, total) => {
        this.progressCalls++;
        this.signal('a ctx.progress call');
        ctx.progress.start(phase, total);
      },
      tick: (n) => {
        this.progressCalls++;
        this.signal('a ctx.progress call');
        ctx.progress.tick(n);
      },
    };
    this.stateOf = ctx.state;
    const state: ConnectorState = {
      get: <T>(key: string) => ctx.state.get<T>(key),
      set: (key, value) => {
        ctx.state.set(key, value);
        this.stateSets++;
        this.stateKeys.add(key);
        this.sample();
      },
    };
    return { ...ctx, progress, state };
  }

  /** `fetch` counted: every call is a request of `ctx.http` (retries included). */
  countFetch(inner: typeof globalThis.fetch): typeof globalThis.fetch {
    return (input, init) => {
      this.requests++;
      this.signal('a ctx.http request');
      return inner(input, init);
    };
  }

  /** Finds and watches the streamed collections of what `extract` returned. */
  watchResult(result: unknown): void {
    this.extractReturned = true;
    this.sample();
    walk(result, '', new Set(), (collection, path) => this.watchCollection(collection, path));
  }

  private item(reads: CollectionReads): void {
    reads.items++;
    this.streamedItems++;
    this.signal('a streamed item read');
  }

  private watchCollection(collection: object, path: string): void {
    const kind = streamedKind(collection);
    const key = kind === 'async-iterable' ? Symbol.asyncIterator : Symbol.iterator;
    const reads: CollectionReads = { path, reads: 0, items: 0, oneShot: false, watched: false };
    this.collections.push(reads);
    const target = collection as Record<symbol, unknown>;
    const original = target[key] as (this: unknown, ...args: unknown[]) => object;
    if (!Object.isExtensible(collection)) return;
    reads.watched = true;
    const onItem = (): void => this.item(reads);
    const patched = new WeakSet<object>();
    Object.defineProperty(collection, key, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]): object {
        reads.reads++;
        const iterator = original.apply(this, args);
        if (iterator !== collection) return countedIterator(iterator, kind, onItem);
        reads.oneShot = true;
        if (!patched.has(iterator)) {
          patched.add(iterator);
          countNextInPlace(iterator, kind, onItem);
        }
        return iterator;
      },
    });
  }
}

type Next = (...args: unknown[]) => unknown;

function counting(next: Next, async: boolean, onItem: () => void): Next {
  return function (this: unknown, ...args: unknown[]): unknown {
    const result = next.apply(this, args);
    if (!async) {
      if ((result as IteratorResult<unknown>).done !== true) onItem();
      return result;
    }
    return (result as Promise<IteratorResult<unknown>>).then((r) => {
      if (r.done !== true) onItem();
      return r;
    });
  };
}

/** A one-shot iterator whose `next` counts the items it gives, patched on the instance. */
function countNextInPlace(iterator: object, kind: string | undefined, onItem: () => void): void {
  const it = iterator as { next: Next };
  const next = it.next;
  if (typeof next !== 'function' || !Object.isExtensible(iterator)) return;
  Object.defineProperty(iterator, 'next', {
    configurable: true,
    writable: true,
    value: counting(next, kind === 'async-iterable', onItem),
  });
}

/** An iterator over `inner` that counts the items it gives. */
function countedIterator(inner: object, kind: string | undefined, onItem: () => void): object {
  const it = inner as { next: Next; return?: Next; throw?: Next };
  const out: Record<string | symbol, unknown> = {
    next: counting(it.next.bind(it), kind === 'async-iterable', onItem),
  };
  if (typeof it.return === 'function') out['return'] = it.return.bind(it);
  if (typeof it.throw === 'function') out['throw'] = it.throw.bind(it);
  out[kind === 'async-iterable' ? Symbol.asyncIterator : Symbol.iterator] = () => out;
  return out;
}

function isPlainRecord(x: object): boolean {
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

function walk(
  value: unknown,
  path: string,
  seen: Set<object>,
  found: (c: object, path: string) => void,
): void {
  if (value === null || typeof value !== 'object' || value instanceof Date || seen.has(value)) return;
  seen.add(value);
  if (streamedKind(value) !== undefined) {
    found(value, path === '' ? '(the payload)' : path);
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walk(value[i], `${path}[${i}]`, seen, found);
    return;
  }
  if (!isPlainRecord(value)) return;
  for (const key of Object.keys(value))
    walk((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, seen, found);
}
