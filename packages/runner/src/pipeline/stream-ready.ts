/**
 * What `extract` returned, made ready for the one streamed pass of a run: the collections that
 * grow with the source (an application payload's local users and `identity_to_permissions`, an
 * identity provider's `users`, an hris's `employees`) stay as the connector gave them, to be read
 * once by the pass that validates, hashes and pushes them; everything else is materialized
 * (`materialize`), because validation reads it before the push.
 */
import { streamedKind, type Template } from '@oaakit/core';
import { materialize } from './materialize.js';
import type { MaterializeOptions } from './materialize.js';

type Container = Record<string | number, unknown>;

function isRecord(x: unknown): x is Container {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * `value` with every synchronous iterable inside it read into an array, in place. Frozen objects
 * (shared, as the builders' grants are) are left as they are.
 */
function plainSync(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner: unknown = value[i];
      if (inner === null || typeof inner !== 'object') continue;
      const plain = plainSync(inner);
      if (plain !== inner && !Object.isFrozen(value)) value[i] = plain;
    }
    return value;
  }
  if (value instanceof Date) return value;
  if (streamedKind(value) === 'iterable') return Array.from(value as Iterable<unknown>, plainSync);
  if (Object.isFrozen(value)) return value;
  const container = value as Container;
  for (const key in container) {
    const inner = container[key];
    if (inner === null || typeof inner !== 'object') continue;
    const plain = plainSync(inner);
    if (plain !== inner) container[key] = plain;
  }
  return container;
}

/** Turns what a streamed source threw into the run's error (`EXTRACT_FAILED`). */
export type SourceFailure = (error: unknown) => unknown;

/**
 * A streamed collection whose items are made plain (`plainSync`) as they are read; what the
 * source throws becomes `fail(error)`.
 */
class PlainItems implements Iterable<unknown> {
  constructor(
    private readonly source: Iterable<unknown>,
    private readonly fail: SourceFailure,
  ) {}
  [Symbol.iterator](): Iterator<unknown> {
    return new PlainIterator(this.source[Symbol.iterator](), this.fail);
  }
}

/**
 * The iterator of `PlainItems`. A class rather than a generator: it is called once per entity of
 * the largest collections, and hands on the source's own result when the item was plain already
 * (nearly always), with no generator to resume and no result object made.
 */
class PlainIterator implements Iterator<unknown> {
  private open = true;

  constructor(
    private readonly it: Iterator<unknown>,
    private readonly fail: SourceFailure,
  ) {}

  next(): IteratorResult<unknown> {
    if (!this.open) return { done: true, value: undefined };
    let r: IteratorResult<unknown>;
    let item: unknown;
    try {
      r = this.it.next();
      if (r.done === true) {
        this.open = false;
        return r;
      }
      item = plainSync(r.value);
    } catch (error) {
      this.close();
      throw this.fail(error);
    }
    return item === r.value ? r : { done: false, value: item };
  }

  return(value?: unknown): IteratorResult<unknown> {
    this.close();
    return { done: true, value };
  }

  /** Ends the source once (a generator's `finally` runs), as a `for...of` that stops early does. */
  private close(): void {
    if (!this.open) return;
    this.open = false;
    this.it.return?.();
  }
}

/** `PlainItems` for an async source. */
class PlainItemsAsync implements AsyncIterable<unknown> {
  constructor(
    private readonly source: AsyncIterable<unknown>,
    private readonly fail: SourceFailure,
  ) {}
  async *[Symbol.asyncIterator](): AsyncIterator<unknown> {
    const it = this.source[Symbol.asyncIterator]();
    try {
      for (let r = await it.next(); r.done !== true; r = await it.next()) yield plainSync(r.value);
    } catch (error) {
      throw this.fail(error);
    } finally {
      await it.return?.();
    }
  }
}

/** A collection kept streamed: as is when it is a list, else read through `PlainItems`. */
function keepStreamed(value: unknown, fail: SourceFailure): unknown {
  const kind = streamedKind(value);
  if (kind === 'async-iterable') return new PlainItemsAsync(value as AsyncIterable<unknown>, fail);
  if (kind === 'iterable') return new PlainItems(value as Iterable<unknown>, fail);
  return Array.isArray(value) ? plainSync(value) : value;
}

/** Reads `source` (a list, an iterable or an async iterable) into an array, items left as they are. */
async function shallowList(source: unknown): Promise<unknown> {
  if (streamedKind(source) === undefined) return source;
  const out: unknown[] = [];
  for await (const item of source as AsyncIterable<unknown>) out.push(item);
  return out;
}

/** The one collection kept streamed in a payload of the other templates than `application`. */
const STREAMED_PEOPLE: Readonly<Record<Exclude<Template, 'application'>, string>> = {
  identity_provider: 'users',
  hris: 'employees',
};

/**
 * `value` ready for the streamed pass (see the file comment). Items of a kept collection are
 * made plain as they are read: a `Set` of groups inside a user becomes a list.
 */
export async function readyForStreaming(
  template: Template,
  value: unknown,
  fail: SourceFailure,
  options: MaterializeOptions = {},
): Promise<unknown> {
  if (!isRecord(value) || streamedKind(value) !== undefined) return materialize(value, options);
  if (template !== 'application') {
    const streamed = STREAMED_PEOPLE[template];
    for (const key of Object.keys(value)) {
      if (key === streamed) value[key] = keepStreamed(value[key], fail);
      else value[key] = await materialize(value[key], options);
    }
    return value;
  }
  for (const key of Object.keys(value)) {
    if (key === 'identity_to_permissions') value[key] = keepStreamed(value[key], fail);
    else if (key !== 'applications') value[key] = await materialize(value[key], options);
  }
  const apps = await shallowList(value.applications);
  value.applications = apps;
  if (!Array.isArray(apps)) return value;
  for (let a = 0; a < apps.length; a++) {
    const app: unknown = apps[a];
    if (!isRecord(app)) {
      apps[a] = await materialize(app, options);
      continue;
    }
    for (const key of Object.keys(app)) {
      if (key === 'local_users') app[key] = keepStreamed(app[key], fail);
      else app[key] = await materialize(app[key], options);
    }
  }
  return value;
}
