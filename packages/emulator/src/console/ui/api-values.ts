/**
 * The API's fixed lists the pages offer as choices: OAuth2 scopes, event severities and categories.
 * They are `@oaakit/core`'s, but the bundle cannot take values from core (its modules load Node's
 * crypto, streams and zlib), so the lists are written here and held to core's types: a value
 * missing from a list, or one core does not know, is a compile error.
 */
import type { EVENT_CATEGORIES, EVENT_SEVERITIES, OAuthScope } from '@oaakit/core';

export type EventSeverity = (typeof EVENT_SEVERITIES)[number];
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

/** The keys of `set`, in order; typed `Record<T, true>`, `set` names every value of `T` once and no other. */
function every<T extends string>(set: Record<T, true>): readonly T[] {
  return Object.keys(set) as T[];
}

export const SCOPES = every<OAuthScope>({
  profile: true,
  'lcm:access-requests:manage': true,
  'oaa:integrations': true,
});

export const SEVERITIES = every<EventSeverity>({ INFO: true, WARNING: true, ERROR: true });

export const CATEGORIES = every<EventCategory>({
  SYSTEM: true,
  INTEGRATIONS: true,
  RULE: true,
  TAG: true,
  NOTIFICATION: true,
});
