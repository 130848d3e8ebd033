import { OaaError, type Violation } from '../errors.js';
import { templateSpec, type KindSpec } from './entity-kinds.js';
import type { Template } from '../schemas/templates.js';
import { identifyingFields } from './entity-key.js';
import { headerOf, isOwnField, ownChanges } from './entity-parts.js';
import type { JsonObject } from './json.js';
import { childSides, matchCollection, type MatchedEntity, type MatchSides } from './match-collection.js';
import { INCREMENTAL_NOT_SUPPORTED } from './operations.js';
import { throwIfViolations } from './problems.js';
import { tagChanges } from './tags.js';

/** `after`'s own fields except tags, with `null` for the fields `before` had and `after` drops. */
function modifiedFields(spec: KindSpec, before: JsonObject, after: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const field of Object.keys(before)) {
    if (isOwnField(spec, field) && field !== 'tags' && !(field in after)) out[field] = null;
  }
  for (const [field, value] of Object.entries(after)) {
    if (isOwnField(spec, field) && field !== 'tags') out[field] = value;
  }
  return out;
}

/** Appends the entries that turn one matched entity into its new version (none when equal). */
function pushMatched(entries: JsonObject[], spec: KindSpec, pair: MatchedEntity, sides: MatchSides): void {
  const before = pair.before.entity;
  const after = pair.after.entity;
  const fields = ownChanges(spec, before, after);
  const children: JsonObject = {};
  let childrenChanged = false;
  for (const { field, spec: child } of spec.children) {
    const nested = collectionEntries(child, before[field], after[field], childSides(sides, pair, field));
    if (nested.length === 0) continue;
    children[field] = nested;
    childrenChanged = true;
  }
  if (fields.length === 0 && !childrenChanged) return;
  const identifying = identifyingFields(spec, after);
  if (fields.some((f) => f !== 'tags')) {
    entries.push({ ...modifiedFields(spec, before, after), ...children, operation: 'modify' });
  } else if (childrenChanged) {
    entries.push({ ...identifying, ...children });
  }
  if (fields.includes('tags')) {
    const { added, removed } = tagChanges(before.tags, after.tags);
    if (removed.length > 0) entries.push({ ...identifying, tags: removed, operation: 'remove_tag' });
    if (added.length > 0) entries.push({ ...identifying, tags: added, operation: 'add_tag' });
  }
}

function collectionEntries(spec: KindSpec, before: unknown, after: unknown, sides: MatchSides): JsonObject[] {
  const match = matchCollection(spec, before, after, sides);
  const entries: JsonObject[] = match.added.map(({ entity }) => ({ ...entity, operation: 'add' }));
  for (const pair of match.matched) pushMatched(entries, spec, pair, sides);
  for (const { entity } of match.removed)
    entries.push({ ...identifyingFields(spec, entity), operation: 'delete' });
  return entries;
}

/**
 * An incremental payload (`incremental_change: true`) that turns `before` into `after`: `add` for
 * new entities, `modify` for changed ones, `delete` for removed ones, `add_tag` / `remove_tag`
 * for changed tags, and an application or resource without `operation` when only its nested
 * entities changed (conventions: see `diff/operations.ts`). The header fields of `after` are always
 * included. Unchanged entities are left out, so for equal payloads every collection is empty.
 * `applyIncremental(template, before, result)` gives back `after`, up to order and unused values.
 *
 * Entities of `after` are shared, not copied: do not mutate the result.
 *
 * Throws `OaaError` `INCREMENTAL_NOT_SUPPORTED` for the `hris` template, which the service
 * accepts only as a full payload, and `ValidationError` when a payload cannot be diffed.
 *
 * @example
 * const update = buildIncrementalPayload('identity_provider', lastPushed, extracted);
 */
export function buildIncrementalPayload(
  template: Template,
  before: JsonObject,
  after: JsonObject,
): JsonObject {
  const spec = templateSpec(template);
  if (!spec.incremental) {
    throw new OaaError(`incremental updates are not supported for the ${template} template`, {
      code: INCREMENTAL_NOT_SUPPORTED,
      details: { template },
      hints: ['push the full payload instead'],
    });
  }
  const beforeViolations: Violation[] = [];
  const afterViolations: Violation[] = [];
  const beforeHeader = headerOf(spec, before);
  const payload: JsonObject = { ...headerOf(spec, after), incremental_change: true };
  for (const field of Object.keys(beforeHeader)) if (!(field in payload)) payload[field] = null;
  for (const { field, spec: kind } of spec.collections) {
    const sides = { beforePath: field, afterPath: field, beforeViolations, afterViolations };
    payload[field] = collectionEntries(kind, before[field], after[field], sides);
  }
  throwIfViolations(beforeViolations, 'the previous payload', 'diffed');
  throwIfViolations(afterViolations, 'the new payload', 'diffed');
  return payload;
}
