/**
 * Looking a request's value up in a fixed table. An object literal also answers the names of
 * `Object.prototype` (`constructor`, `__proto__`, `toString`, `valueOf`, `hasOwnProperty`, ...), so
 * a table indexed by a request value is a `Map` or is read through `ownEntry`.
 */

/** `table[key]` when `key` is one of the table's own keys, else undefined. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
