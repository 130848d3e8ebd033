/**
 * Turns what `extract` returned into a plain payload: entity collections given as iterables or
 * async iterables (generators, streams of pages) are drained into arrays, in place. Validation,
 * the digest and the diff all need the whole payload at hand. Plain arrays and objects are walked
 * synchronously, so a payload without iterables costs one pass and no copies.
 */

import { streamedKind } from '@oaakit/core';

/** Options of {@link materialize}. */
export interface MaterializeOptions {
  signal?: AbortSignal | undefined;
  /** Called for every item drained from an iterable, so extraction progress can be shown. */
  onItem?: () => void;
}

type Container = Record<string | number, unknown>;

interface Hole {
  parent: Container;
  key: string | number;
  source: Iterable<unknown> | AsyncIterable<unknown>;
}

/** `x` when it is a streamed collection (core's `streamedKind`: as the serializer reads it). */
function asIterable(x: object): Iterable<unknown> | AsyncIterable<unknown> | undefined {
  return streamedKind(x) === undefined ? undefined : (x as Iterable<unknown> | AsyncIterable<unknown>);
}

function visit(parent: Container, key: string | number, holes: Hole[]): void {
  const value = parent[key];
  if (value === null || typeof value !== 'object' || value instanceof Date) return;
  const source = asIterable(value);
  if (source !== undefined) holes.push({ parent, key, source });
  else findHoles(value as Container, holes);
}

function findHoles(value: Container, holes: Hole[]): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) visit(value, i, holes);
  } else {
    for (const key of Object.keys(value)) visit(value, key, holes);
  }
}

async function drain(
  source: Iterable<unknown> | AsyncIterable<unknown>,
  options: MaterializeOptions,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of source) {
    if (out.length % 1024 === 0) options.signal?.throwIfAborted();
    out.push(await materialize(item, options));
    options.onItem?.();
  }
  return out;
}

/** `value` with every (async) iterable that is not an array replaced by an array of its items. */
export async function materialize(value: unknown, options: MaterializeOptions = {}): Promise<unknown> {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const source = asIterable(value);
  if (source !== undefined) return drain(source, options);
  const holes: Hole[] = [];
  findHoles(value as Container, holes);
  for (const hole of holes) hole.parent[hole.key] = await drain(hole.source, options);
  return value;
}
