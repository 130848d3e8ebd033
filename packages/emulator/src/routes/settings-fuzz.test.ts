/**
 * Random bodies (any JSON, and valid bodies with one value replaced) to the template, settings and
 * last-login endpoints never cause a 500: the answer is a 200 or a 400 naming a field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useEmulator, violations } from '../private-test-helpers/harness.js';
import { replaceAt } from '../private-test-helpers/json-slots.js';

/** `valid` (a fresh copy) with one value replaced. */
function mutated(valid: () => unknown, pick: number, replacement: unknown): unknown {
  return replaceAt(valid(), pick, replacement);
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

const ENDPOINTS: [string, string, () => unknown][] = [
  [
    'PATCH',
    '/api/private/lifecycle_management/access_requests/settings',
    () => ({
      enabled: true,
      admin_approval_settings: { allow_approval_on_request: true },
      event_notification_settings: [
        {
          event_type: 1,
          notification_settings: { webhook_settings: { webhook_url: 'https://x.example.com' } },
        },
      ],
      deny_requesters: ['a@example.com'],
    }),
  ],
  [
    'POST',
    '/api/preview/notifications/email_templates',
    () => ({
      value: {
        name: 'n',
        subject_template: 's {{x}}',
        body_template_base64: b64('<p>{{x}}</p>'),
        usage: 'ASSESSMENT_RULE',
      },
    }),
  ],
  [
    'POST',
    '/api/preview/notifications/email_templates:test_template',
    () => ({
      value: { subject_template: 's', body_template_base64: b64('<p>x</p>'), usage: 'ASSESSMENT_RISK' },
      emails: ['a@example.com'],
    }),
  ],
  ['POST', '/_emulator/feature_flags', () => ({ INTEG_OAA_SSO_LAST_LOGIN: true })],
  [
    'POST',
    '/_emulator/idp_audit_activity',
    () => ({ values: [{ idp_app_id: 'app', user: { login: 'a' }, timestamp: '2026-11-01T00:00:00Z' }] }),
  ],
];

describe('fuzz: templates, settings and last-login controls', () => {
  const h = useEmulator();

  for (const [method, path, valid] of ENDPOINTS) {
    it(`${method} ${path}`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.jsonValue(),
            fc.tuple(fc.nat(), fc.jsonValue()).map(([n, v]) => mutated(valid, n, v)),
          ),
          async (body) => {
            const res = await h().call(method, path, body);
            // No SMTP server is configured, so a valid test message is a 503 (never a 500).
            expect([200, 400, 503], JSON.stringify(res.body).slice(0, 300)).toContain(res.status);
            if (res.status === 400) expect(violations(res.body).length).toBeGreaterThan(0);
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});
