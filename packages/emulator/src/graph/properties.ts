/** Node properties from payload entities: plain fields as is, custom properties as `customprop_<name>`. */

/** Fields that every entity kind keeps out of its properties (they become edges, tags or children). */
const ALWAYS_SKIPPED = new Set(['custom_properties', 'tags', 'operation', 'dynamic_properties']);

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * The properties of `entity`: scalar fields and lists of scalars, except `skip`, plus custom property
 * values under `customprop_<name>`. Unused (null) values are left out.
 */
export function entityProperties(
  entity: object,
  skip: ReadonlySet<string>,
  extra?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in entity) {
    if (ALWAYS_SKIPPED.has(key) || skip.has(key)) continue;
    const value = (entity as Record<string, unknown>)[key];
    if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) out[key] = value;
  }
  const custom = (entity as { custom_properties?: unknown }).custom_properties;
  if (custom !== null && typeof custom === 'object') {
    for (const key in custom) {
      const value = (custom as Record<string, unknown>)[key];
      if (value !== null && value !== undefined) out[`customprop_${key}`] = value;
    }
  }
  if (extra) Object.assign(out, extra);
  return out;
}

/** Case-folds a name for keys and lookups: the service compares names without case. */
export function fold(name: string): string {
  return name.toLowerCase();
}
