import { streamedKind } from '../serialize/json-values.js';

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

/** Whether `value` is a streamed collection the serializer reads with its iterator (see `streamedKind`). */
export function isStreamed(value: unknown): value is Iterable<unknown> {
  return streamedKind(value) === 'iterable';
}

/**
 * Whether `value` is a streamed collection the serializer reads with its async iterator (see
 * `streamedKind`): only the serializer can read it.
 */
export function isAsyncStreamed(value: unknown): value is AsyncIterable<unknown> {
  return streamedKind(value) === 'async-iterable';
}
