/**
 * The digest, the entity counts and one hash per entity, computed while a payload is read by its
 * one consumer (the serializer of a push): streamed collections are read once, and no more than the
 * entity being read is held. `digest(template, payload)` is this hasher over a payload of lists.
 */
import { createHash, hash } from 'node:crypto';
import type { Template } from '../schemas/templates.js';
import type { EntityCounts } from './entity-counts.js';
import { templateKinds } from './entity-counts.js';
import {
  ENTITY_KIND_INDEX,
  ENTITY_KINDS,
  templateSpec,
  type ChildCollection,
  type EntityKind,
  type KindSpec,
} from './entity-kinds.js';
import { encodeHeader, hashOwn } from './entity-parts.js';
import { KEY_SEPARATOR, keyText } from './entity-key.js';
import { isJsonObject, type JsonObject } from './json.js';
import { MultisetHash } from './multiset-hash.js';
import { nestedHash, type NestedSet } from './nested-hash.js';
import { streamedKind } from '../serialize/json-values.js';

/**
 * Names the digest's algorithm (hashed first): every entity's own data hashed with the value hash
 * of `value-hash.ts`, an entity combined with its nested collections from numbers
 * (`nested-hash.ts`). Should the algorithm change, so does the name, and no digest of the new one
 * equals one of the old.
 */
const DIGEST_VERSION = 'oaakit.digest.v4';

/** Hex digits of the header hash. */
const HEADER_HASH_DIGITS = 16;

/**
 * One entity as it was read. `onEntity` is given one object, filled again for each entity: read
 * it during the call, and copy what you keep (see {@link entityKey} and {@link entityLabel}).
 */
export interface EntityHash {
  /** The entity's kind: the collection it is in (`local_users`, `resources`...). */
  readonly kind: EntityKind;
  /**
   * The identity of the entity it sits in (`''` at the top level): for a local user the key of its
   * application, for a sub-resource its parent resource's scope and key. Entities pair up across
   * two payloads by kind, scope and key.
   */
  readonly scope: string;
  /**
   * The start of the entity's key (see `diffPayloads`): the key field's name and a NUL
   * (`name\u0000`), or for a key of a type and an id the type, lower-cased, and a colon
   * (`local_user:`). The key is `keyPrefix + keyValue`.
   */
  readonly keyPrefix: string;
  /** The rest of the key: the key field's value, lower-cased (`bob`), or the id of a pair. */
  readonly keyValue: string;
  /**
   * The entity's `name` as written, when it is a string other than what the key reads as
   * (`keyValue`, or the whole key for a pair); else `undefined`.
   */
  readonly name: string | undefined;
  /**
   * The hash of the entity's own data (nested collections are hashed on their own): its first 52
   * bits, a whole number exact in a double. Two versions of an entity have the same one exactly
   * when their own data is the same, but for accidental collisions (one in 2^52 for a pair).
   */
  readonly own: number;
}

/** The entity's key, lower-cased: `name\u0000bob`, or `local_user:bob` for a pair key. */
export function entityKey(entity: EntityHash): string {
  return entity.keyPrefix + entity.keyValue;
}

/** For people: the entity's `name` as written when it is a string, else what its key reads as (`bob`). */
export function entityLabel(entity: EntityHash): string {
  if (entity.name !== undefined) return entity.name;
  return entity.keyPrefix.endsWith(KEY_SEPARATOR) ? entity.keyValue : entityKey(entity);
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
/** `field + NUL` per key field name; the last pair type seen and its prefix (`type:`). */
const FIELD_PREFIXES = new Map<string, string>();
let lastType = '';
let lastTypePrefix = ':';

function fieldPrefix(field: string): string {
  let prefix = FIELD_PREFIXES.get(field);
  if (prefix === undefined) FIELD_PREFIXES.set(field, (prefix = field + KEY_SEPARATOR));
  return prefix;
}

function typePrefix(type: string): string {
  // One type per collection, nearly always: compared, not looked up.
  if (type !== lastType) {
    lastType = type;
    lastTypePrefix = `${type}:`;
  }
  return lastTypePrefix;
}

/** The one `EntityHash` handed to `onEntity`, filled again per entity. */
class Entity implements EntityHash {
  kind: EntityKind = 'applications';
  scope = '';
  keyPrefix = '';
  keyValue = '';
  name: string | undefined = undefined;
  own = 0;

  /** Fills in the key of `item` (and its name); false when it has none. */
  keyFrom(spec: KindSpec, item: JsonObject): boolean {
    const rule = spec.key;
    const name = item.name;
    if ('pair' in rule) {
      const id = keyText(item[rule.pair.id]);
      if (id === undefined) return false;
      this.keyPrefix = typePrefix(keyText(item[rule.pair.type]) ?? '');
      this.keyValue = id;
      this.name = typeof name === 'string' && name !== this.keyPrefix + id ? name : undefined;
      return true;
    }
    for (const field of rule.first) {
      const value = keyText(item[field]);
      if (value === undefined) continue;
      this.keyPrefix = fieldPrefix(field);
      this.keyValue = value;
      this.name = typeof name === 'string' && name !== value ? name : undefined;
      return true;
    }
    return false;
  }
}

class Reading {
  /** Entities read per kind, by index in `ENTITY_KINDS`. */
  readonly tally = new Float64Array(ENTITY_KINDS.length);
  readonly entity = new Entity();
  /** Streamed collections wrapped, and read to their end, so far. */
  wrapped = 0;
  closed = 0;
  /**
   * Values where an entity collection should be that are not lists (or, unless `listsOnly`,
   * iterables), and items of collections that are not objects: hashed as if absent.
   */
  problems = 0;

  constructor(
    readonly kinds: readonly EntityKind[],
    readonly onEntity: ((entity: EntityHash) => void) | undefined,
    /** Streamed collections are problems, not read (`digest` takes lists only). */
    readonly listsOnly: boolean,
  ) {}

  /** Every wrapped collection has been read to its end. */
  get done(): boolean {
    return this.closed === this.wrapped;
  }

  counts(): EntityCounts {
    const counts: EntityCounts = {};
    for (const kind of this.kinds) counts[kind] = this.tally[ENTITY_KIND_INDEX.get(kind)!]!;
    return counts;
  }
}

/**
 * An entity with nested collections: hashed once nothing in it is open, that is once its streamed
 * collections have been read and the entities in it that wait for theirs have been hashed.
 */
interface Pending {
  /** The hash of its own data (four words). */
  own: Uint32Array;
  children: NestedSet[];
  into: MultisetHash;
  open: number;
  parent: Pending | undefined;
}

/** One part `pending` waited for is done; the last one hashes it, and finishes a part of its parent. */
function finishPart(pending: Pending): void {
  if (--pending.open > 0) return;
  pending.into.add(nestedHash(pending.own, pending.children));
  if (pending.parent !== undefined) finishPart(pending.parent);
}

/** The spec looked up last and its kind's index: entities of one kind come in runs. */
let lastSpec: KindSpec | undefined;
let lastKindIndex = 0;

function kindIndex(spec: KindSpec): number {
  if (spec !== lastSpec) {
    lastSpec = spec;
    lastKindIndex = ENTITY_KIND_INDEX.get(spec.kind)!;
  }
  return lastKindIndex;
}

function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

/** Whether none of the nested collections of `item` holds anything (missing, null or `[]`). */
function noChildren(spec: KindSpec, item: JsonObject): boolean {
  for (const { field } of spec.children) {
    const value = item[field];
    if (value !== undefined && value !== null && !(isList(value) && value.length === 0)) return false;
  }
  return true;
}

/**
 * The items of a list, each hashed now (`hashEntity`); the list itself unless an item had to be
 * replaced by a copy with streamed collections wrapped.
 */
function hashEntities(
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
    const value = hashEntity(reading, spec, scope, item, set, parent);
    if (value !== item) (out ??= list.slice())[i] = value;
  }
  return out ?? list;
}

/**
 * One entity: its own data is hashed and reported now. Nested collections given as lists are
 * hashed now too; streamed ones are wrapped (in a copy of the entity), and the entity's hash is
 * added to `into` once the last of them has been read.
 */
function hashEntity(
  reading: Reading,
  spec: KindSpec,
  scope: string,
  item: unknown,
  into: MultisetHash,
  parent: Pending | undefined,
): unknown {
  if (!isJsonObject(item)) {
    reading.problems++;
    return item;
  }
  reading.tally[kindIndex(spec)]! += 1;
  const words = hashOwn(spec, item);
  const leaf = spec.children.length === 0 || noChildren(spec, item);
  const entity = reading.entity;
  entity.own = words[0]! * 0x100000 + (words[1]! >>> 12);
  // Added before anything else can hash (and overwrite the words).
  let own: Uint32Array | undefined;
  if (leaf) into.add(words);
  else own = words.slice(0, 4);
  const onEntity = reading.onEntity;
  // Keys and scopes serve only the listener: without one, none is made.
  const keyed = onEntity !== undefined && entity.keyFrom(spec, item);
  if (keyed) {
    entity.kind = spec.kind;
    entity.scope = scope;
    onEntity(entity);
  }
  if (own === undefined) return item;
  const inner =
    onEntity === undefined
      ? ''
      : `${scope}${SCOPE_SEPARATOR}${spec.kind}:${keyed ? entity.keyPrefix + entity.keyValue : ''}`;
  // Open until the loop below is done; the parent waits for this entity.
  const pending: Pending = { own, children: [], into, open: 1, parent };
  if (parent !== undefined) parent.open++;
  let copy: JsonObject | undefined;
  for (const { field, spec: child } of spec.children) {
    const set = new MultisetHash();
    pending.children.push({ field, set });
    const value = item[field];
    const seen = isList(value)
      ? hashEntities(reading, child, inner, value, set, pending)
      : hashWhenRead(reading, child, inner, value, set, pending);
    if (seen !== value) (copy ??= { ...item })[field] = seen;
  }
  finishPart(pending);
  return copy ?? item;
}

/**
 * `source` (an iterable or an async iterable) wrapped to be hashed as it is read (`hashEntity` per
 * item), which `owner` (the entity it sits in, if any) waits for until it has been read to its end;
 * anything else as is.
 */
function hashWhenRead(
  reading: Reading,
  spec: KindSpec,
  scope: string,
  source: unknown,
  set: MultisetHash,
  owner: Pending | undefined,
): unknown {
  if (source === null || source === undefined) return source;
  const kind = streamedKind(source);
  if (kind === undefined || reading.listsOnly) {
    reading.problems++;
    return source;
  }
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
        if (owner !== undefined) finishPart(owner);
      }
      return r;
    }
    const value = hashEntity(reading, spec, scope, r.value, set, owner);
    return value === r.value ? r : { done: false, value };
  };
  if (kind === 'iterable') {
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
 * `onEntity` is called for every entity with a key, with one object filled again each time (copy
 * what you keep); `counts` and `digest()` are complete once
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
  return hashPayload(template, payload, onEntity, false);
}

/** {@link HashAsRead}, and what of the payload was not read as entities. */
export interface PayloadHashing extends HashAsRead {
  /**
   * Values where an entity collection should be that are not lists (nor, unless `listsOnly`,
   * iterables), and items of collections that are not objects: each hashed as if absent.
   */
  readonly problems: number;
}

/**
 * {@link hashAsRead}, with `onEntity` optional (no keys are read without it), and, when
 * `listsOnly`, streamed collections counted as problems instead of read (`digest`).
 */
export function hashPayload(
  template: Template,
  payload: JsonObject,
  onEntity: ((entity: EntityHash) => void) | undefined,
  listsOnly: boolean,
): PayloadHashing {
  const spec = templateSpec(template);
  const reading = new Reading(templateKinds(template), onEntity, listsOnly);
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
      ? hashEntities(reading, collection.spec, '', v, set, undefined)
      : hashWhenRead(reading, collection.spec, '', v, set, undefined);
  }
  const result: PayloadHashing = {
    value,
    header: hash('sha256', headerText, 'hex').slice(0, HEADER_HASH_DIGITS),
    get counts() {
      return reading.counts();
    },
    get complete() {
      return reading.done;
    },
    get problems() {
      return reading.problems;
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
