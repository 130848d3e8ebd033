/** Checking a collection entity by entity, so that validation and serialization can share one read. */
import { isAsyncStreamed, type Collection } from './collections.js';
import type { CheckContext, PathSegment } from './context.js';

/**
 * Checks one streamed collection entity by entity: `begin`, `visit` for each entity in order,
 * then `end`. Validation and serialization can share one read of a million users this way.
 */
export interface EntityVisitor<T> {
  begin(): void;
  visit(entity: T, index: number): void;
  end(): void;
}

/** A visitor that checks nothing (the users of an application whose name repeats an earlier one). */
export const IGNORE: EntityVisitor<never> = { begin() {}, visit() {}, end() {} };

/** Runs `visitor` over `collection` (absent: nothing to visit); false when it cannot be read. */
export function visitAll<T>(
  collection: Collection<T> | null | undefined,
  visitor: EntityVisitor<T>,
  ctx: CheckContext,
  ...at: PathSegment[]
): boolean {
  if (isAsyncStreamed(collection)) {
    ctx.error(
      'is an async iterable, which validate() cannot read: validate the payload while it is serialized (createPayloadStream or pushPayload with validate, or validateAsRead)',
      ...at,
    );
    return false;
  }
  visitor.begin();
  if (Array.isArray(collection)) {
    // By index: the iteration protocol would allocate a result per entity here.
    const entities = collection as readonly T[];
    for (let i = 0; i < entities.length; i++) visitor.visit(entities[i]!, i);
  } else if (collection) {
    let i = 0;
    for (const entity of collection) visitor.visit(entity, i++);
  }
  visitor.end();
  return true;
}
