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
export type ContainerKind = 'array' | 'iterable' | 'async-iterable' | 'record' | 'boxed';

/** Whether `x` has an iterator or an async iterator, of its own or inherited. */
export function isIterableObject(x: object): boolean {
  return (
    typeof (x as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function' ||
    typeof (x as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}

function hasOwnField(x: object): boolean {
  for (const k in x) if (Object.prototype.hasOwnProperty.call(x, k)) return true;
  return false;
}

/**
 * Classifies a resolved object; boxed primitives (`new String('x')`) unwrap as JSON.stringify does.
 * A plain object (an object literal) is a record when it has a field of its own, even if it is
 * iterable too; an iterable one without fields (`{ *[Symbol.iterator]() {...} }`) is a list.
 */
export function containerKind(x: object): ContainerKind {
  if (Array.isArray(x)) return 'array';
  if (x instanceof Number || x instanceof String || x instanceof Boolean || x instanceof BigInt)
    return 'boxed';
  const proto: unknown = Object.getPrototypeOf(x);
  if ((proto === Object.prototype || proto === null) && hasOwnField(x)) return 'record';
  if (typeof (x as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function')
    return 'async-iterable';
  if (typeof (x as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function') return 'iterable';
  return 'record';
}

/** The primitive inside a boxed primitive, converted the way JSON.stringify converts it. */
export function unbox(x: object): unknown {
  if (x instanceof Number) return Number(x);
  if (x instanceof String) return String(x);
  if (x instanceof Boolean) return x.valueOf();
  return (x as { valueOf(): unknown }).valueOf();
}
