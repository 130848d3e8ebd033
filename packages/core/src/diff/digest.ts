import { createHash } from 'node:crypto';
import type { Violation } from '../errors.js';
import { templateSpec, type ChildCollection } from './entity-kinds.js';
import type { Template } from '../schemas/templates.js';
import { forEachEntity } from './entity-key.js';
import { encodeHeader, encodeOwn, hashOwn } from './entity-parts.js';
import { hash128 } from './hash128.js';
import { joinPath, type JsonObject } from './json.js';
import { MultisetHash } from './multiset-hash.js';
import { throwIfViolations } from './problems.js';

/**
 * Names the digest's algorithm; v3 hashes an entity's own data with the value hash of
 * `value-hash.ts` (v2: `hash128` of its canonical text, v1: SHA-256 of it), so a digest of an
 * earlier version never equals a v3 one and the first run after the upgrade pushes once more.
 */
export const DIGEST_VERSION = 'oaakit.digest.v3';

/** Hashes the nested collections of one container, each as an order-independent multiset. */
function collectionsText(
  collections: readonly ChildCollection[],
  container: JsonObject,
  path: string,
  violations: Violation[],
): string {
  let text = '';
  for (const { field, spec } of collections) {
    const set = new MultisetHash();
    const fieldPath = joinPath(path, field);
    forEachEntity(container[field], fieldPath, violations, (entity, index) => {
      if (spec.children.length === 0) {
        set.add(hashOwn(spec, entity));
        return;
      }
      const own = encodeOwn(spec, entity);
      set.add(
        hash128(`${own}\n${collectionsText(spec.children, entity, `${fieldPath}[${index}]`, violations)}`),
      );
    });
    text += `${field}=${set.toString()}\n`;
  }
  return text;
}

/**
 * SHA-256 (hex) of the data of a payload, the same for two payloads that say the same thing:
 * independent of object key order, of the order of entities in entity collections and of tags in
 * a `tags` list, and blind to values that mean "unused" (null, `[]`, `{}`) and to
 * `incremental_change`. Lists that are not entity collections (a user's `groups`, `identities`)
 * keep their order. Each entity is hashed on its own (a fast non-cryptographic hash of its own
 * values that equals for equal canonical text, see `value-hash.ts`; entities with nested
 * collections by `hash128` of their canonical text and their collections' hashes) and the entity
 * hashes are combined order-independently (their sum modulo 2^128), so memory stays flat however
 * many entities the payload holds. The digest names its version (`oaakit.digest.v3`): digests of
 * earlier versions (v1: SHA-256 per entity, v2: `hash128` of its text) never equal these, so a run
 * after the upgrade sees its last push's digest as different and pushes once more.
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
  h.update(collectionsText(spec.collections, payload, '', violations));
  throwIfViolations(violations, 'the payload', 'digested');
  return h.digest('hex');
}
