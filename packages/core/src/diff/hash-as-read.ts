/**
 * The digest, the entity counts and one hash per entity, computed while a payload is read by its
 * one consumer (the serializer of a push): streamed collections are read once, and no more than the
 * entity being read is held. The digest equals `digest(template, payload)` of the same data.
 */
import { createHash, hash } from 'node:crypto';
import type { Template } from '../schemas/templates.js';
import type { EntityCounts } from './entity-counts.js';
import { templateKinds } from './entity-counts.js';
import { displayKey, keyOf } from './entity-key.js';
import { templateSpec, type ChildCollection, type EntityKind, type KindSpec } from './entity-kinds.js';
import { DIGEST_VERSION } from './digest.js';
import { encodeHeader, encodeOwn, hashOwn } from './entity-parts.js';
import { hash128, hex64 } from './hash128.js';
import { isJsonObject, type JsonObject } from './json.js';
import { MultisetHash } from './multiset-hash.js';

/** Hex digits kept of an entity's own-data hash: 64 bits, plenty to tell a change. */
const OWN_HASH_DIGITS = 16;

/** One entity as it was read. */
export interface EntityHash {
  readonly kind: EntityKind;
  /**
   * The identity of the entity it sits in (`''` at the top level): for a local user the key of its
   * application, for a sub-resource its parent resource's scope and key. Entities pair up across
   * two payloads by kind, scope and key.
   */
  readonly scope: string;
  /** The entity's key (see `diffPayloads`), lower-cased. */
  readonly key: string;
  /** For people: `name` as written when it is a string, else the key's value (e.g. `bob`). */
  readonly label: string;
  /**
   * Hash of the entity's own data: the first 64 bits (16 hex digits) of `hash128` of its canonical
   * text; nested collections are hashed on their own.
   */
  readonly own: string;
}

/** What {@link hashAsRead} returns. */
export interface HashAsRead {
  /** What to read in place of the payload: the same JSON, hashed as it is read. Read it once. */
  readonly value: JsonObject;
  /** Hash (16 hex digits) of the header: the top-level fields that are not entity collections. */
  readonly header: string;
  /** Whether every entity collection has been read to its end. */
  readonly complete: boolean;
  /** Entities per kind read so far; complete once `complete` is true. */
  readonly counts: EntityCounts;
  /** The payload's digest; throws until `complete`. */
  digest(): string;
}

const SCOPE_SEPARATOR = '\u0001';

class Reading {
  readonly counts: EntityCounts;
  /** Streamed collections wrapped, and read to their end, so far. */
  wrapped = 0;
  closed = 0;

  constructor(
    template: Template,
    readonly onEntity: (entity: EntityHash) => void,
  ) {
    this.counts = Object.fromEntries(templateKinds(template).map((k) => [k, 0]));
  }

  /** Every wrapped collection has been read to its end. */
  get done(): boolean {
    return this.closed === this.wrapped;
  }
}

/**
 * An entity with nested collections: hashed once nothing in it is open, that is once its streamed
 * collections have been read and the entities in it that wait for theirs have been hashed.
 */
interface Pending {
  own: string;
  children: { field: string; set: MultisetHash }[];
  into: MultisetHash;
  open: number;
  parent: Pending | undefined;
}

/** One thing `pending` waited for is done; the last one hashes it, and tells its parent. */
function settle(pending: Pending): void {
  if (--pending.open > 0) return;
  let text = `${pending.own}\n`;
  for (const { field, set } of pending.children) text += `${field}=${set.toString()}\n`;
  pending.into.add(hash128(text));
  if (pending.parent !== undefined) settle(pending.parent);
}

function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

/**
 * The items of a list, each seen now (`see`); the list itself unless an item had to be replaced
 * by a copy with streamed collections wrapped.
 */
function seeList(
  reading: Reading,
  spec: KindSpec,
  scope: string,
  list: unknown[],
  set: MultisetHash,
  parent: Pending | undefined,
): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const value = see(reading, spec, scope, item, set, parent);
    if (value !== item) (out ??= list.slice())[i] = value;
  }
  return out ?? list;
}

/**
 * One entity: its own data is hashed and reported now. Nested collections given as lists are
 * hashed now too; streamed ones are wrapped (in a copy of the entity), and the entity's hash is
 * added to `into` once the last of them has been read.
 */
function see(
  reading: Reading,
  spec: KindSpec,
  scope: string,
  item: unknown,
  into: MultisetHash,
  parent: Pending | undefined,
): unknown {
  if (!isJsonObject(item)) return item;
  reading.counts[spec.kind] = (reading.counts[spec.kind] ?? 0) + 1;
  // Entities without nested collections (nearly all) are hashed without building their text.
  const ownText = spec.children.length === 0 ? undefined : encodeOwn(spec, item);
  const ownHash = ownText === undefined ? hashOwn(spec, item) : hash128(ownText);
  const own = hex64(ownHash);
  // Added before anything else can hash (and overwrite the words).
  if (spec.children.length === 0) into.add(ownHash);
  const key = keyOf(spec, item);
  if (key !== undefined) {
    const name = item.name;
    reading.onEntity({
      kind: spec.kind,
      scope,
      key,
      label: typeof name === 'string' ? name : displayKey(spec, key),
      own,
    });
  }
  if (spec.children.length === 0) return item;
  const inner = `${scope}${SCOPE_SEPARATOR}${spec.kind}:${key ?? ''}`;
  // Open until the loop below is done; the parent waits for this entity.
  const pending: Pending = { own: ownText!, children: [], into, open: 1, parent };
  if (parent !== undefined) parent.open++;
  let copy: JsonObject | undefined;
  for (const { field, spec: child } of spec.children) {
    const set = new MultisetHash();
    pending.children.push({ field, set });
    const value = item[field];
    const seen = isList(value)
      ? seeList(reading, child, inner, value, set, pending)
      : wrap(reading, child, inner, value, set, pending);
    if (seen !== value) (copy ??= { ...item })[field] = seen;
  }
  settle(pending);
  return copy ?? item;
}

/**
 * `source` (an iterable or an async iterable) read through `see`, which `owner` (the entity it
 * sits in, if any) waits for until it has been read to its end; anything else as is.
 */
function wrap(
  reading: Reading,
  spec: KindSpec,
  scope: string,
  source: unknown,
  set: MultisetHash,
  owner: Pending | undefined,
): unknown {
  if (source === null || typeof source !== 'object') return source;
  const sync = typeof (source as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function';
  const async =
    !sync && typeof (source as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function';
  if (!sync && !async) return source;
  reading.wrapped++;
  if (owner !== undefined) owner.open++;
  let used = false;
  let ended = false;
  const begin = (): void => {
    if (used) throw new Error('hashAsRead: a hashed collection was read twice');
    used = true;
  };
  const step = (r: IteratorResult<unknown>): IteratorResult<unknown> => {
    if (r.done === true) {
      if (!ended) {
        ended = true;
        reading.closed++;
        if (owner !== undefined) settle(owner);
      }
      return r;
    }
    return { done: false, value: see(reading, spec, scope, r.value, set, owner) };
  };
  if (sync) {
    return new Hashed(() => {
      begin();
      const inner = (source as Iterable<unknown>)[Symbol.iterator]();
      return {
        next: () => step(inner.next()),
        return: (value?: unknown) => {
          inner.return?.(value);
          return { done: true, value };
        },
      };
    });
  }
  return new HashedAsync(() => {
    begin();
    const inner = (source as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    return {
      next: async () => step(await inner.next()),
      return: async (value?: unknown) => {
        await inner.return?.(value);
        return { done: true, value };
      },
    };
  });
}

/** A collection read through the hashing (a class, so the serializer takes it for an iterable, not a record). */
class Hashed implements Iterable<unknown> {
  constructor(private readonly open: () => Iterator<unknown>) {}

  [Symbol.iterator](): Iterator<unknown> {
    return this.open();
  }
}

/** `Hashed` for an async iterable. */
class HashedAsync implements AsyncIterable<unknown> {
  constructor(private readonly open: () => AsyncIterator<unknown>) {}

  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    return this.open();
  }
}

/**
 * Wraps `payload` so that reading the returned `value` once (serializing it, say) hashes it:
 * `onEntity` is called for every entity with a key; `counts` and `digest()` are complete once
 * every streamed (iterable) collection has been read to its end. Entities in lists are hashed at
 * once, by this call (they are in memory already); streamed ones as they are read, one at a time.
 *
 * @example
 * const hashed = hashAsRead('application', payload, (e) => snapshot.write(e));
 * for await (const chunk of jsonChunks(hashed.value)) send(chunk);
 * if (hashed.digest() === last.digest) logger.info('unchanged');
 */
export function hashAsRead(
  template: Template,
  payload: JsonObject,
  onEntity: (entity: EntityHash) => void,
): HashAsRead {
  const spec = templateSpec(template);
  const reading = new Reading(template, onEntity);
  const headerText = encodeHeader(spec, payload);
  const sets = new Map<string, MultisetHash>();
  const value: JsonObject = {};
  const collections = new Map<string, ChildCollection>(spec.collections.map((c) => [c.field, c]));
  for (const [field, v] of Object.entries(payload)) {
    const collection = collections.get(field);
    if (collection === undefined) {
      value[field] = v;
      continue;
    }
    const set = new MultisetHash();
    sets.set(field, set);
    value[field] = isList(v)
      ? seeList(reading, collection.spec, '', v, set, undefined)
      : wrap(reading, collection.spec, '', v, set, undefined);
  }
  const result: HashAsRead = {
    value,
    header: hash('sha256', headerText, 'hex').slice(0, OWN_HASH_DIGITS),
    counts: reading.counts,
    get complete() {
      return reading.done;
    },
    digest() {
      if (!result.complete) throw new Error('hashAsRead: the payload has not been read to its end');
      const h = createHash('sha256');
      h.update(`${DIGEST_VERSION}\n${template}\n`);
      h.update(headerText);
      h.update('\n');
      let text = '';
      for (const { field } of spec.collections)
        text += `${field}=${(sets.get(field) ?? new MultisetHash()).toString()}\n`;
      h.update(text);
      return h.digest('hex');
    },
  };
  return result;
}
