import type { Violation } from '../errors.js';
import { templateSpec, type ChildCollection } from './entity-kinds.js';
import type { Template } from '../schemas/templates.js';
import { forEachEntity } from './entity-key.js';
import { hashPayload } from './hash-as-read.js';
import { joinPath, type JsonObject } from './json.js';
import { throwIfViolations } from './problems.js';

/**
 * The entity collections of `container` (and, nested, of its entities) that are not lists of
 * objects, found again only once the hasher has met one.
 */
function shapeViolations(
  collections: readonly ChildCollection[],
  container: JsonObject,
  path: string,
  violations: Violation[],
): Violation[] {
  for (const { field, spec } of collections) {
    const fieldPath = joinPath(path, field);
    forEachEntity(container[field], fieldPath, violations, (entity, index) => {
      if (spec.children.length > 0)
        shapeViolations(spec.children, entity, `${fieldPath}[${index}]`, violations);
    });
  }
  return violations;
}

/**
 * SHA-256 (hex) of the data of a payload, the same for two payloads that say the same thing:
 * independent of object key order, of the order of entities in entity collections and of tags in
 * a `tags` list, and blind to values that mean "unused" (null, `[]`, `{}`) and to
 * `incremental_change`. Lists that are not entity collections (a user's `groups`, `identities`)
 * keep their order. Each entity is hashed on its own (a fast non-cryptographic hash of its own
 * values that equals for equal canonical text, see `value-hash.ts`; an entity with nested
 * entities together with its collections' hashes, see `nested-hash.ts`) and the entity hashes are
 * combined order-independently (their sum modulo 2^128), so memory stays flat however many
 * entities the payload holds. It is the digest `hashAsRead` gives for the same data, computed by
 * the same hasher; the digest names its algorithm, so a digest of another one never equals it.
 *
 * Throws `ValidationError` when an entity collection is not a list of objects.
 *
 * @example
 * if (digest('application', payload) === state.lastDigest) return; // nothing changed, skip the push
 */
export function digest(template: Template, payload: JsonObject): string {
  const hashed = hashPayload(template, payload, undefined, true);
  if (hashed.problems > 0) {
    const violations = shapeViolations(templateSpec(template).collections, payload, '', []);
    throwIfViolations(violations, 'the payload', 'digested');
  }
  return hashed.digest();
}
