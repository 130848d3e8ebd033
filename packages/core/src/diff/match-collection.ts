import type { Violation } from '../errors.js';
import type { KindSpec } from './entity-kinds.js';
import { indexCollection, type IndexedEntity } from './entity-key.js';

/** Two versions of one entity. */
export interface MatchedEntity {
  readonly before: IndexedEntity;
  readonly after: IndexedEntity;
}

/** Entities of one collection in two payloads, paired by key. */
export interface CollectionMatch {
  /** In `after` order. */
  readonly added: IndexedEntity[];
  /** In `before` order. */
  readonly removed: IndexedEntity[];
  /** In `after` order. */
  readonly matched: MatchedEntity[];
}

/** Where the two versions of a collection sit, and where their problems are reported. */
export interface MatchSides {
  readonly beforePath: string;
  readonly afterPath: string;
  readonly beforeViolations: Violation[];
  readonly afterViolations: Violation[];
}

/** Pairs the entities of one collection of two payloads by key. */
export function matchCollection(
  spec: KindSpec,
  before: unknown,
  after: unknown,
  sides: MatchSides,
): CollectionMatch {
  const beforeIndex = indexCollection(spec, before, sides.beforePath, sides.beforeViolations);
  const afterIndex = indexCollection(spec, after, sides.afterPath, sides.afterViolations);
  const added: IndexedEntity[] = [];
  const matched: MatchedEntity[] = [];
  for (const [id, entity] of afterIndex) {
    const previous = beforeIndex.get(id);
    if (previous === undefined) added.push(entity);
    else matched.push({ before: previous, after: entity });
  }
  const removed: IndexedEntity[] = [];
  for (const [id, entity] of beforeIndex) if (!afterIndex.has(id)) removed.push(entity);
  return { added, removed, matched };
}

/** The sides for the collection `field` nested in a matched pair. */
export function childSides(sides: MatchSides, pair: MatchedEntity, field: string): MatchSides {
  return {
    ...sides,
    beforePath: `${sides.beforePath}[${pair.before.index}].${field}`,
    afterPath: `${sides.afterPath}[${pair.after.index}].${field}`,
  };
}
