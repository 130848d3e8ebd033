/**
 * The value rules of `JSON.stringify` that both the synchronous encoder and the streaming walker
 * apply, plus the one extension of this serializer: a non-array iterable is written as an array.
 */

/**
 * A value the serializer accepts: JSON values, where any array may also be an `Iterable` or an
 * `AsyncIterable` of its items (a generator, a `Set`, an async generator of entities...).
 *
 * @example
 * const payload: Streamable<ApplicationPayload> = { applications: [{ ...app, local_users: fetchUsers() }] };
 */
export type Streamable<T> = T extends readonly (infer E)[]
  ? readonly Streamable<E>[] | Iterable<Streamable<E>> | AsyncIterable<Streamable<E>>
  : T extends Date | ((...args: never[]) => unknown)
    ? T
    : T extends object
      ? { [K in keyof T]: Streamable<T[K]> }
      : T;

/** Applies `toJSON(key)` as `JSON.stringify` does, for objects and bigints. */
export function resolveJsonValue(x: unknown, key: string | number): unknown {
  const toJSON = (x as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(x, String(key)) : x;
}

/** Values that `JSON.stringify` drops from objects and writes as `null` in arrays. */
export function isOmitted(x: unknown): boolean {
  return x === undefined || typeof x === 'function' || typeof x === 'symbol';
}

/** How the walker writes an object value that the synchronous encoder handed back. */
export type ContainerKind = 'array' | StreamedKind | 'record' | 'boxed';

/** How the serializer reads a streamed collection: with its iterator, or its async iterator. */
export type StreamedKind = 'iterable' | 'async-iterable';

function hasOwnField(x: object): boolean {
  for (const k in x) if (Object.prototype.hasOwnProperty.call(x, k)) return true;
  return false;
}

function isBoxed(x: object): boolean {
  return x instanceof Number || x instanceof String || x instanceof Boolean || x instanceof BigInt;
}

/**
 * Whether the serializer writes `x` as a list it reads item by item (a streamed collection: a
 * generator, a `Set`, an async iterable of entities...), and how: with its async iterator when it
 * has one, else with its iterator. Not streamed: anything that is not an object, an array (a list
 * already), a boxed primitive (`new String('ab')` is a string), and an object literal with a field
 * of its own, which is a record even if it is iterable too; an iterable object literal without
 * fields (`{ *[Symbol.iterator]() {...} }`) is streamed. The one rule the serializer, the hasher,
 * the validator and the runner follow.
 *
 * @example
 * if (streamedKind(value) === 'iterable') for (const entity of value as Iterable<unknown>) count++;
 */
export function streamedKind(x: unknown): StreamedKind | undefined {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return undefined;
  // Most objects have neither: two lookups tell, before the rarer questions.
  const async = typeof (x as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function';
  if (!async && typeof (x as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') return undefined;
  if (isBoxed(x)) return undefined;
  const proto: unknown = Object.getPrototypeOf(x);
  if ((proto === Object.prototype || proto === null) && hasOwnField(x)) return undefined;
  return async ? 'async-iterable' : 'iterable';
}

/**
 * Classifies a resolved object; boxed primitives (`new String('x')`) unwrap as JSON.stringify does,
 * and a streamed collection (see {@link streamedKind}) is written as a list.
 */
export function containerKind(x: object): ContainerKind {
  if (Array.isArray(x)) return 'array';
  if (isBoxed(x)) return 'boxed';
  return streamedKind(x) ?? 'record';
}

/** The primitive inside a boxed primitive, converted the way JSON.stringify converts it. */
export function unbox(x: object): unknown {
  if (x instanceof Number) return Number(x);
  if (x instanceof String) return String(x);
  if (x instanceof Boolean) return x.valueOf();
  return (x as { valueOf(): unknown }).valueOf();
}
