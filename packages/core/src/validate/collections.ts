/**
 * Entity collections as `validate` accepts them: arrays, or (streaming payloads) any iterable of
 * entities, walked once. Small collections (applications, permissions, groups, roles) are read into
 * arrays; the large ones (users, grants, resources) are iterated.
 */
export type Collection<T> = readonly T[] | Iterable<T>;

/** The collection's items as an array (the array itself when it is one). */
export function toArray<T>(collection: Collection<T> | null | undefined): readonly T[] {
  if (collection === null || collection === undefined) return [];
  return Array.isArray(collection) ? (collection as readonly T[]) : Array.from(collection);
}

/** Whether `value` is an iterable other than a string or an array: a streamed collection. */
export function isStreamed(value: unknown): value is Iterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function'
  );
}

/** Whether `value` is an async iterable (a streamed collection only the serializer can read). */
export function isAsyncStreamed(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}
