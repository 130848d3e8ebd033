import { createHash } from 'node:crypto';
import type { Violation } from '../errors.js';
import { templateSpec, type ChildCollection } from './entity-kinds.js';
import type { Template } from '../schemas/templates.js';
import { forEachEntity } from './entity-key.js';
import { encodeHeader, hashOwn } from './entity-parts.js';
import { joinPath, type JsonObject } from './json.js';
import { MultisetHash } from './multiset-hash.js';
import { nestedHash, type NestedSet } from './nested-hash.js';
import { throwIfViolations } from './problems.js';

/**
 * Names the digest's algorithm (hashed first): every entity's own data hashed with the value hash
 * of `value-hash.ts`, an entity combined with its nested collections from numbers
 * (`nested-hash.ts`). Should the algorithm change, so does the name, and no digest of the new one
 * equals one of the old.
 */
export const DIGEST_VERSION = 'oaakit.digest.v4';

/** The nested collections of one container, each hashed as an order-independent multiset. */
function hashCollections(
  collections: readonly ChildCollection[],
  container: JsonObject,
  path: string,
  violations: Violation[],
): NestedSet[] {
  return collections.map(({ field, spec }) => {
    const set = new MultisetHash();
    const fieldPath = joinPath(path, field);
    forEachEntity(container[field], fieldPath, violations, (entity, index) => {
      const words = hashOwn(spec, entity);
      if (spec.children.length === 0) {
        set.add(words);
        return;
      }
      const own = words.slice(0, 4);
      set.add(nestedHash(own, hashCollections(spec.children, entity, `${fieldPath}[${index}]`, violations)));
    });
    return { field, set };
  });
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
 * entities the payload holds. The digest names its algorithm (`DIGEST_VERSION`).
 *
 * Throws `ValidationError` when an entity collection is not a list of objects.
 *
 * @example
 * if (digest('application', payload) === state.lastDigest) return; // nothing changed, skip the push
 */
export function digest(template: Template, payload: JsonObject): string {
  const spec = templateSpec(template);
  const violations: Violation[] = [];
  const h = createHash('sha256');
  h.update(`${DIGEST_VERSION}\n${template}\n`);
  h.update(encodeHeader(spec, payload));
  h.update('\n');
  let text = '';
  for (const { field, set } of hashCollections(spec.collections, payload, '', violations))
    text += `${field}=${set.toString()}\n`;
  h.update(text);
  throwIfViolations(violations, 'the payload', 'digested');
  return h.digest('hex');
}
