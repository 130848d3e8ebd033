/**
 * `PATCH /api/private/lifecycle_management/access_requests/settings` over HTTP: every field of the
 * spec, partial updates that merge, unknown keys and bad values refused naming the field, and the
 * current settings read back under `/_emulator/access_request_settings`.
 */
import { describe, expect, it } from 'vitest';
import { useEmulator, violations } from '../private-test-helpers/harness.js';

const PATH = '/api/private/lifecycle_management/access_requests/settings';
const READ = '/_emulator/access_request_settings';

/** A settings body with every field of the spec. */
const EVERY_FIELD = {
  event_notification_settings: [
    {
      event_type: 1,
      notification_settings: {
        notification_type: 2,
        notification_id: 'n-1',
        email_settings: {
          emails: ['approvers@example.com'],
          extra_email_fields: ['manager_email'],
          email_formatters: [{ formatter: 'subject', pipeline_functions: 'upper' }],
        },
        webhook_settings: {
          webhook_url: 'https://hooks.example.com/access',
          webhook_auth_header: 'Bearer hook-token',
          webhook_method: 'POST',
          webhook_headers: { 'x-team': 'iam' },
        },
      },
      on_success: true,
      on_failure: false,
      on_success_custom_template_id: 't-ok',
      on_failure_custom_template_id: 't-ko',
    },
  ],
  admin_approval_settings: { allow_approval_on_request: true, grant_without_approval: false },
  access_profile_owner_approval_settings: { allow_approval_on_request: false, grant_without_approval: false },
  app_owner_approval_settings: { allow_approval_on_request: true, grant_without_approval: true },
  access_profile_requestable_settings: {
    allow_all: false,
    allow_with_labels: ['finance'],
    allow_from_types: ['application'],
  },
  enabled: true,
  access_request_event_notification_settings: {
    values: [
      {
        event_type: 3,
        notification_type: 1,
        email_setting: {
          to_approvers: true,
          to_creator: true,
          to_beneficiary: false,
          to_watchers: false,
          other_emails: ['audit@example.com'],
        },
        notification_id: 'n-2',
      },
    ],
  },
  available_explanations: ['Project work', 'On call'],
  delegations: { delegations: [{ original_user: 'ann@example.com', delegate_user: 'bob@example.com' }] },
  deny_requesters: ['contractor@example.com'],
  deny_approvers: ['intern@example.com'],
  actions_require_sso_login: [1, 2],
};

/** EVERY_FIELD as answers show it: the webhook's auth header is never answered. */
const ANSWERED = structuredClone(EVERY_FIELD);
ANSWERED.event_notification_settings[0]!.notification_settings.webhook_settings.webhook_auth_header =
  '[REDACTED]';

describe('access-request settings', () => {
  const h = useEmulator();
  const current = async (): Promise<Record<string, unknown>> =>
    (await h().call('GET', READ)).body.value as Record<string, unknown>;

  it('starts empty, takes every field of the spec, and answers and stores the settings', async () => {
    expect(await current()).toEqual({});
    const res = await h().call('PATCH', PATH, EVERY_FIELD);
    expect(res.status).toBe(200);
    expect(res.body.value).toEqual(ANSWERED);
    expect(await current()).toEqual(ANSWERED);
  });

  it('never answers a webhook auth header; sending the redacted settings back keeps it', async () => {
    const first = await h().call('PATCH', PATH, EVERY_FIELD);
    expect(JSON.stringify(first.body)).not.toContain('hook-token');
    // Read, change one field, send the whole list back: the stored header stays.
    const read = await current();
    const list = read.event_notification_settings as { on_failure: boolean }[];
    list[0]!.on_failure = true;
    const back = await h().call('PATCH', PATH, { event_notification_settings: list });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(JSON.stringify(await current())).not.toContain('hook-token');
    expect((await current()).event_notification_settings).toEqual([
      { ...ANSWERED.event_notification_settings[0], on_failure: true },
    ]);
    // The placeholder where no header is stored is refused, naming the field.
    const extra = await h().call('PATCH', PATH, {
      event_notification_settings: [
        ...list,
        { notification_settings: { webhook_settings: { webhook_auth_header: '[REDACTED]' } } },
      ],
    });
    expect(extra.status).toBe(400);
    expect(violations(extra.body)[0]?.field).toBe(
      'event_notification_settings[1].notification_settings.webhook_settings.webhook_auth_header',
    );
  });

  it('merges partial updates: objects field by field, lists replaced whole, null clears a field', async () => {
    await h().call('PATCH', PATH, EVERY_FIELD);
    const res = await h().call('PATCH', PATH, {
      admin_approval_settings: { grant_without_approval: true },
      deny_requesters: ['someone@example.com'],
      delegations: { delegations: [] },
      enabled: null,
    });
    expect(res.status).toBe(200);
    const after = await current();
    expect(after.admin_approval_settings).toEqual({
      allow_approval_on_request: true,
      grant_without_approval: true,
    });
    expect(after.deny_requesters).toEqual(['someone@example.com']);
    expect(after.delegations).toEqual({ delegations: [] });
    expect(after).not.toHaveProperty('enabled');
    // Untouched fields keep their values.
    expect(after.deny_approvers).toEqual(['intern@example.com']);
    expect(after.event_notification_settings).toEqual(ANSWERED.event_notification_settings);
  });

  it('refuses unknown keys at any depth, naming them, and changes nothing', async () => {
    await h().call('PATCH', PATH, { enabled: true });
    const res = await h().call('PATCH', PATH, {
      enabled: false,
      auto_approve: true,
      admin_approval_settings: { allow_approval_on_request: true, skip: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('InvalidArgument');
    expect(violations(res.body)).toEqual(
      expect.arrayContaining([
        { field: 'auto_approve', description: 'unknown field' },
        { field: 'admin_approval_settings.skip', description: 'unknown field' },
      ]),
    );
    expect(await current()).toEqual({ enabled: true });
  });

  it('refuses wrong types and values, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ enabled: 'yes' }, 'enabled'],
      [{ actions_require_sso_login: [1.5] }, 'actions_require_sso_login[0]'],
      [{ deny_requesters: 'a@example.com' }, 'deny_requesters'],
      [
        {
          access_request_event_notification_settings: {
            values: [{ email_setting: { other_emails: ['nope'] } }],
          },
        },
        'access_request_event_notification_settings.values[0].email_setting.other_emails[0]',
      ],
      [
        {
          event_notification_settings: [
            { notification_settings: { webhook_settings: { webhook_url: 'ftp://x.example.com' } } },
          ],
        },
        'event_notification_settings[0].notification_settings.webhook_settings.webhook_url',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await h().call('PATCH', PATH, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(violations(res.body).map((v) => v.field)).toContain(field);
    }
    expect(await current()).toEqual({});
  });

  it('bounds lists and the body', async () => {
    const tooMany = await h().call('PATCH', PATH, {
      available_explanations: Array.from({ length: 1001 }, (_, i) => `reason ${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect(violations(tooMany.body)[0]?.field).toBe('available_explanations');
    const huge = await h().call('PATCH', PATH, { deny_requesters: ['x'.repeat(1100 * 1024)] });
    expect(huge.status).toBe(400);
    expect(violations(huge.body)[0]).toEqual({
      field: 'body',
      description: 'the request body exceeds the limit of 1048576 bytes',
    });
  });

  it('needs an admin key to change settings', async () => {
    const { body } = await h().call('POST', '/_emulator/api_keys', { role: 'system_monitoring' });
    const res = await h().call('PATCH', PATH, { enabled: true }, { key: body.value.key as string });
    expect(res.status).toBe(403);
    expect(await current()).toEqual({});
  });
});
