/**
 * The `operation` values of an incremental payload: `OPERATIONS` of the payload schemas.
 *
 * Conventions of oaakit (the builder emits them, `applyIncremental` and so the emulator expects them):
 * - `add` carries the whole entity, nested collections included as plain data (no operations inside).
 * - `modify` carries the entity's own fields; a field set to `null` is cleared, a field left out is
 *   kept; `tags` sent with `modify` are added (tags are removed only by `remove_tag`). Nested
 *   collections in a `modify` entry hold incremental entries of their own.
 * - `delete` needs only the identifying fields.
 * - `add_tag` / `remove_tag` carry the identifying fields and `tags`; `delete_tag` (the vendor's
 *   spelling) is accepted as `remove_tag`.
 * - An entity with nested collections (an application, a resource) whose own data is unchanged
 *   appears with its identifying fields, no `operation`, and only the changes to its children.
 * - `remove_tag` with a tag value removes that key/value pair; without a value, every value of the key.
 * - Header fields (top-level fields that are not entity collections) replace the stored ones;
 *   `null` clears one; `incremental_change` is not stored.
 * - One object takes each operation at most once per payload, never both `add` and `modify`, and
 *   nothing besides `delete` once deleted.
 */
import { OPERATIONS, type Operation } from '../schemas/common.js';
/** True for a known `operation` value. */
export function isOperation(value: unknown): value is Operation {
  return typeof value === 'string' && (OPERATIONS as readonly string[]).includes(value);
}

/** `OaaError.code` of `buildIncrementalPayload` for a template that takes no incremental payloads. */
export const INCREMENTAL_NOT_SUPPORTED = 'INCREMENTAL_NOT_SUPPORTED';
