/**
 * How an application's local users, groups, roles and access credentials are known: by `id`, else
 * `unique_id`, else `name` (the vendor SDK sends `id` and references that). Such an entity also
 * answers to its other names, so a grant may still name a user by its display name.
 */
import type { CheckContext } from './context.js';
import type { NameIndex } from './names.js';

/** The identifying fields of a local identity. */
export interface LocalKeyed {
  name: string;
  id?: string | null | undefined;
  unique_id?: string | null | undefined;
}

/** The key of a local identity: `id`, else `unique_id`, else `name`. */
export function localKey(e: LocalKeyed): string {
  return e.id ?? e.unique_id ?? e.name;
}

/** The field that holds the key, for messages about it. */
export function localKeyField(e: LocalKeyed): 'id' | 'unique_id' | 'name' {
  return e.id != null ? 'id' : e.unique_id != null ? 'unique_id' : 'name';
}

/**
 * Registers the entity at `index` in `index` under its key, reporting a repeated key at its key
 * field. Its other names are registered with `aliasLocal` once every key is known.
 */
export function addLocal(
  index: NameIndex,
  e: LocalKeyed & { operation?: string | null | undefined },
  i: number,
  ctx: CheckContext,
): boolean {
  return index.add(localKey(e), i, ctx, localKeyField(e), e.operation);
}

/** Registers the other names of the entity at `i` (a name, and a unique id beside an id). */
export function aliasLocal(index: NameIndex, e: LocalKeyed, i: number): void {
  if (e.id != null && e.unique_id) index.alias(e.unique_id, i);
  if ((e.id ?? e.unique_id) != null) index.alias(e.name, i);
}
