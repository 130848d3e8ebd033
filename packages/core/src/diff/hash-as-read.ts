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
import { encodeHeader, encodeOwn } from './entity-parts.js';
import { isJsonObject, type JsonObject } from './json.js';
import { MultisetHash } from './multiset-hash.js';

const VERSION = 'oaakit.digest.v1';
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
  /** Hash (16 hex digits) of the entity's own data; nested collections are hashed on their own. */
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
  private open = 0;
  /** Top-level collections wrapped, and opened so far. */
  topWrapped = 0;
  topOpened = 0;

  constructor(
    template: Template,
    readonly onEntity: (entity: EntityHash) => void,
  ) {
    this.counts = Object.fromEntries(templateKinds(template).map((k) => [k, 0]));
  }

  opened(top: boolean): void {
    this.open++;
    if (top) this.topOpened++;
  }

  closed(): void {
    this.open--;
  }

  /** Every top-level collection has been opened, and every collection opened has been closed. */
  get done(): boolean {
    return this.open === 0 && this.topOpened === this.topWrapped;
  }
}

/** One entity whose nested collections are being read; it is hashed once they have been. */
interface Pending {
  own: string;
  children: { field: string; set: MultisetHash }[];
  into: MultisetHash;
}

function finish(pending: Pending): void {
  let text = `${pending.own}\n`;
  for (const { field, set } of pending.children) text += `${field}=${set.toString()}\n`;
  pending.into.add(hash('sha256', text, 'buffer'));
}

/**
 * An entity as read: leaves are hashed at once; an entity with nested collections is copied with
 * those collections wrapped in turn, and hashed when the next one is asked for.
 */
function see(
  reading: Reading,
  spec: KindSpec,
  scope: string,
  item: unknown,
  into: MultisetHash,
): { value: unknown; pending?: Pending } {
  if (!isJsonObject(item)) return { value: item };
  reading.counts[spec.kind] = (reading.counts[spec.kind] ?? 0) + 1;
  const ownText = encodeOwn(spec, item);
  const ownHash = hash('sha256', ownText, 'buffer');
  const key = keyOf(spec, item);
  if (key !== undefined) {
    const name = item.name;
    reading.onEntity({
      kind: spec.kind,
      scope,
      key,
      label: typeof name === 'string' ? name : displayKey(spec, key),
      own: ownHash.toString('hex', 0, OWN_HASH_DIGITS / 2),
    });
  }
  if (spec.children.length === 0) {
    into.add(ownHash);
    return { value: item };
  }
  const inner = `${scope}${SCOPE_SEPARATOR}${spec.kind}:${key ?? ''}`;
  const copy: JsonObject = { ...item };
  const children = spec.children.map(({ field, spec: child }) => {
    const set = new MultisetHash();
    copy[field] = wrap(reading, child, inner, item[field], set, false);
    return { field, set };
  });
  return { value: copy, pending: { own: ownText, children, into } };
}

/** `source` (a list, an iterable or an async iterable) read through `see`; anything else as is. */
function wrap(
  reading: Reading,
  spec: KindSpec,
  scope: string,
  source: unknown,
  set: MultisetHash,
  top: boolean,
): unknown {
  if (source === null || typeof source !== 'object') return source;
  const sync = typeof (source as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function';
  const async =
    !sync && typeof (source as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function';
  if (!sync && !async) return source;
  if (top) reading.topWrapped++;
  let used = false;
  const begin = (): void => {
    if (used) throw new Error('hashAsRead: a hashed collection was read twice');
    used = true;
    reading.opened(top);
  };
  let pending: Pending | undefined;
  const step = (r: IteratorResult<unknown>): IteratorResult<unknown> => {
    if (pending !== undefined) finish(pending);
    pending = undefined;
    if (r.done === true) {
      reading.closed();
      return r;
    }
    const seen = see(reading, spec, scope, r.value, set);
    pending = seen.pending;
    return { done: false, value: seen.value };
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
 * `onEntity` is called for every entity with a key, as it is read; `counts` and `digest()` are
 * complete once every entity collection has been read. A collection given as a list is read
 * through the wrapper too. Entity collections must be read in full, in the serializer's order
 * (an entity's nested collections before the next entity).
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
    value[field] = wrap(reading, collection.spec, '', v, set, true);
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
      h.update(`${VERSION}\n${template}\n`);
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
