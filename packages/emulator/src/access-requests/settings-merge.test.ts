/** The merge and redaction rules of access-request settings, as pure functions. */
import { describe, expect, it } from 'vitest';
import { mergeSettings } from './merge-settings.js';
import { REDACTED, redactSettings, restoreRedacted } from './redact-settings.js';

const hook = (header: string) => ({
  notification_settings: { webhook_settings: { webhook_auth_header: header } },
});

describe('mergeSettings', () => {
  it('merges objects at any depth, replaces lists, removes null fields, keeps absent ones', () => {
    const stored = { a: { b: { c: 1, d: 2 } }, list: [1, 2, 3], gone: true, kept: 'x' };
    expect(mergeSettings(stored, { a: { b: { d: 5 } }, list: [9], gone: null })).toEqual({
      a: { b: { c: 1, d: 5 } },
      list: [9],
      kept: 'x',
    });
    expect(stored.a.b.d).toBe(2);
  });
});

describe('redaction of webhook auth headers', () => {
  it('answers the placeholder and puts the stored header back where a patch sends it', () => {
    const stored = { event_notification_settings: [hook('Bearer secret-1'), hook('Bearer secret-2')] };
    expect(JSON.stringify(redactSettings(stored))).not.toContain('secret');
    expect(
      stored.event_notification_settings[0]!.notification_settings.webhook_settings.webhook_auth_header,
    ).toBe('Bearer secret-1');
    const patch = { event_notification_settings: [hook(REDACTED), hook('Bearer new')] };
    restoreRedacted(patch, stored);
    expect(patch).toEqual({ event_notification_settings: [hook('Bearer secret-1'), hook('Bearer new')] });
    expect(() =>
      restoreRedacted({ event_notification_settings: [{}, {}, hook(REDACTED)] }, stored),
    ).toThrow();
  });
});
