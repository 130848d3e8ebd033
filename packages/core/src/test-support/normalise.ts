/**
 * A payload with what its writer chose rather than what it says taken out, for comparing payloads
 * built two ways (test-only): keys sorted, "unused" values dropped (null, [], {}), and
 * `apply_to_application: false`, the default, dropped.
 */
export function normalisePayload(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalisePayload);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = normalisePayload((value as Record<string, unknown>)[key]);
    if (v === null || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    if (key === 'apply_to_application' && v === false) continue;
    out[key] = v;
  }
  return out;
}
