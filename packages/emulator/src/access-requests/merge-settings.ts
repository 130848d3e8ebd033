/**
 * How a PATCH of access-request settings combines with the stored settings. The spec says only that
 * every field is optional; the emulator merges:
 *
 * - an object (`admin_approval_settings`, `delegations`, ...) merges field by field, at any depth;
 * - a list (`deny_requesters`, `event_notification_settings`, `delegations.delegations`, ...) is a
 *   value: the patch's list replaces the stored one whole (`[]` empties it). Lists have no key to
 *   merge entries by, and a list that merged could never lose an entry;
 * - a map of free keys (`webhook_headers`) lives inside a list entry, so it is replaced with it;
 * - `null` removes the field (back to unset); an absent field keeps its stored value.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A settings document: a JSON object. */
export type SettingsDocument = { [key: string]: Json };

function isObject(value: unknown): value is SettingsDocument {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `patch` merged into `stored` (neither is changed). */
export function mergeSettings(
  stored: SettingsDocument,
  patch: Readonly<Record<string, unknown>>,
): SettingsDocument {
  const out: SettingsDocument = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete out[key];
      continue;
    }
    const before = out[key];
    out[key] = isObject(value) ? mergeSettings(isObject(before) ? before : {}, value) : (value as Json);
  }
  return out;
}
