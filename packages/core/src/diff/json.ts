/**
 * Loose JSON shapes for the digest and diff functions. Payloads are typed loosely on purpose: the
 * functions here only need the entity structure of a template, not every field of it.
 */

/** A JSON object: a payload, its header or one entity. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `parent.field`, or `field` at the top level: the JSON path style of `Violation.field`. */
export function joinPath(parent: string, field: string): string {
  return parent === '' ? field : `${parent}.${field}`;
}
