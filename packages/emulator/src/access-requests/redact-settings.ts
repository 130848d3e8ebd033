/**
 * `webhook_auth_header` (in `event_notification_settings[i].notification_settings.webhook_settings`)
 * is a credential: the emulator stores it but never answers it. Answers show {@link REDACTED} in
 * its place, and a PATCH that sends {@link REDACTED} back (settings read, changed and sent whole)
 * keeps the header stored at the same list position.
 */
import { badField } from '../errors.js';
import type { SettingsDocument } from './merge-settings.js';

/** What answers show instead of a webhook's auth header. */
export const REDACTED = '[REDACTED]';

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The webhook settings object of a list entry, if it has one. */
function webhookOf(entry: unknown): Obj | undefined {
  if (!isObject(entry) || !isObject(entry.notification_settings)) return undefined;
  const webhook = entry.notification_settings.webhook_settings;
  return isObject(webhook) ? webhook : undefined;
}

function entries(doc: Readonly<Obj>): unknown[] {
  return Array.isArray(doc.event_notification_settings) ? doc.event_notification_settings : [];
}

/** A copy of `doc` with every webhook auth header replaced by {@link REDACTED}. */
export function redactSettings(doc: SettingsDocument): SettingsDocument {
  const copy = structuredClone(doc);
  for (const entry of entries(copy)) {
    const webhook = webhookOf(entry);
    if (webhook && typeof webhook.webhook_auth_header === 'string' && webhook.webhook_auth_header !== '')
      webhook.webhook_auth_header = REDACTED;
  }
  return copy;
}

/**
 * Puts the stored header back where `patch` sends {@link REDACTED} (changes `patch`); a 400 naming
 * the field when no header is stored at that position.
 */
export function restoreRedacted(patch: Obj, stored: Readonly<Obj>): void {
  const kept = entries(stored);
  entries(patch).forEach((entry, i) => {
    const webhook = webhookOf(entry);
    if (webhook?.webhook_auth_header !== REDACTED) return;
    const before = webhookOf(kept[i])?.webhook_auth_header;
    if (typeof before !== 'string' || before === '')
      throw badField(
        `event_notification_settings[${i}].notification_settings.webhook_settings.webhook_auth_header`,
        `${REDACTED} keeps the header stored at this position, but none is stored there: send the header itself`,
      );
    webhook.webhook_auth_header = before;
  });
}
