/**
 * How the graph finds an application's local users, groups, roles and access credentials: by their
 * key (`id`, else `unique_id`, else `name`, as @oaakit/core's validation knows them), then by their
 * other names. Keys win over other names, and the first entity to claim another name keeps it, so a
 * reference resolves to the entity validation resolved it to.
 */
import { fold } from './properties.js';

/** The identifying fields of a local identity. */
export interface LocalKeyed {
  name: string;
  id?: string | null | undefined;
  unique_id?: string | null | undefined;
}

/** The case-folded key of a local identity: `id`, else `unique_id`, else `name`. */
export function localKey(e: LocalKeyed): string {
  return fold(e.id ?? e.unique_id ?? e.name);
}

/** Local identities of one kind in one application, by key and other names (all case-folded). */
export class LocalIndex<T> {
  private readonly keys = new Map<string, T>();
  private readonly aliases = new Map<string, T>();

  /** Whether an entity already holds `e`'s key (a repeat, which the ingest skips). */
  holds(e: LocalKeyed, key = localKey(e)): boolean {
    return this.keys.has(key);
  }

  /**
   * Registers `value` under `e`'s key and its other names (a unique id beside an id, a name).
   * `key` is `localKey(e)`, passed when the caller has it.
   */
  add(e: LocalKeyed, value: T, key = localKey(e)): void {
    this.keys.set(key, value);
    if (e.id != null && e.unique_id) this.alias(e.unique_id, value);
    if ((e.id ?? e.unique_id) != null) this.alias(e.name, value);
  }

  /** The entity a reference names: by key first, else by another name. */
  get(ref: string): T | undefined {
    const k = fold(ref);
    return this.keys.get(k) ?? this.aliases.get(k);
  }

  /** Every entity once, in the order added. */
  values(): IterableIterator<T> {
    return this.keys.values();
  }

  private alias(name: string, value: T): void {
    const k = fold(name);
    if (!this.aliases.has(k)) this.aliases.set(k, value);
  }
}
