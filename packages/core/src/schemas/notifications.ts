/**
 * Email notification templates and access-request settings. Every string and list has a bound, so a
 * service (the emulator) can parse a body with these schemas alone and answer a 400 naming the field.
 */
import * as z from 'zod';
import { opt } from './primitives.js';

/** The notification usage values of the spec (access reviews and access security). */
export const NOTIFICATION_USAGES = [
  'ACCESS_WORKFLOW_STARTED',
  'ACCESS_WORKFLOW_COMPLETED',
  'ACCESS_WORKFLOW_REVIEWER_CHANGED',
  'ACCESS_WORKFLOW_OWNER_CHANGED',
  'ACCESS_WORKFLOW_REMINDER_NO_ACTIVITY',
  'ACCESS_WORKFLOW_REMINDER_DUE',
  'ACCESS_WORKFLOW_DIGEST_NOTIFICATION',
  'ACCESS_WORKFLOW_REVIEW_ALERT',
  'ACCESS_WORKFLOW_ROW_ACCEPTED_AND_SIGNEDOFF',
  'ACCESS_WORKFLOW_ROW_REJECTED_AND_SIGNEDOFF',
  'ASSESSMENT_RULE',
  'ASSESSMENT_RISK',
] as const;
/** One notification usage value. */
export type NotificationUsage = (typeof NOTIFICATION_USAGES)[number];

/** Longest template name, in characters. */
export const MAX_TEMPLATE_NAME = 256;
/** Longest subject template, in characters (RFC 5322's line limit). */
export const MAX_TEMPLATE_SUBJECT = 998;
/** Largest decoded HTML body of a template, in bytes (256 KiB). */
export const MAX_TEMPLATE_BODY_BYTES = 256 * 1024;

/** A template as the service reports it; fields beyond the spec's are kept. */
export const emailTemplateSchema = z.looseObject({
  id: opt(z.string()),
  name: z.string(),
  subject_template: z.string(),
  body_template_base64: z.string(),
  usage: z.string(),
});
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;

/** A template as a create or update sends it: the spec's fields, bounded; `usage` one of the spec's. */
export const emailTemplateInputSchema = z.strictObject({
  id: opt(z.string().max(100)),
  name: z.string().min(1, { error: 'must not be empty' }).max(MAX_TEMPLATE_NAME),
  subject_template: z.string().min(1, { error: 'must not be empty' }).max(MAX_TEMPLATE_SUBJECT),
  body_template_base64: z
    .base64({ error: 'must be base64 of the HTML body' })
    .min(1, { error: 'must not be empty' })
    .max(Math.ceil(MAX_TEMPLATE_BODY_BYTES / 3) * 4, {
      error: `must decode to at most ${MAX_TEMPLATE_BODY_BYTES} bytes of HTML`,
    }),
  usage: z.enum(NOTIFICATION_USAGES, {
    error: `must be one of ${NOTIFICATION_USAGES.join(', ')}`,
  }),
});
export type EmailTemplateInput = z.infer<typeof emailTemplateInputSchema>;

/** Requests wrap the template in `value`. */
export const emailTemplateRequestSchema = z.strictObject({ value: emailTemplateInputSchema });

/** Most recipients of one test message. */
export const MAX_TEST_RECIPIENTS = 50;

/**
 * Body of `:test_template`: the template to render (as a create sends it; `name` optional) and,
 * optionally, who receives the test message. The spec does not show this body.
 */
export const emailTemplateTestRequestSchema = z.strictObject({
  value: emailTemplateInputSchema.extend({ name: opt(emailTemplateInputSchema.shape.name) }),
  emails: opt(
    z
      .array(z.email({ error: 'must be an email address' }).max(320))
      .min(1, { error: 'must name at least one recipient' })
      .max(MAX_TEST_RECIPIENTS),
  ),
});
export type EmailTemplateTestRequest = z.infer<typeof emailTemplateTestRequestSchema>;

/** What `:test_template` answers in `value` (the emulator's answer; the spec shows none). */
export const emailTemplateTestResultSchema = z.looseObject({
  subject: opt(z.string()),
  body_html_base64: opt(z.string()),
  recipients: opt(z.array(z.string())),
  message_id: opt(z.string()),
  unknown_placeholders: opt(z.array(z.string())),
});
export type EmailTemplateTestResult = z.infer<typeof emailTemplateTestResultSchema>;

/** Most entries of any list in the settings. */
export const MAX_SETTINGS_LIST = 1000;
/** Longest string in the settings, in characters. */
export const MAX_SETTINGS_STRING = 2048;

const text = () => z.string().max(MAX_SETTINGS_STRING);
const listOf = <T extends z.ZodType>(item: T) => opt(z.array(item).max(MAX_SETTINGS_LIST));
const email = () => z.email({ error: 'must be an email address' }).max(320);
const int = () => z.number().int();

const approval = z.strictObject({
  allow_approval_on_request: opt(z.boolean()),
  grant_without_approval: opt(z.boolean()),
});

const notificationSettings = z.strictObject({
  notification_type: opt(int()),
  notification_id: opt(text()),
  email_settings: opt(
    z.strictObject({
      emails: listOf(email()),
      extra_email_fields: listOf(text()),
      email_formatters: listOf(z.strictObject({ formatter: text(), pipeline_functions: opt(text()) })),
    }),
  ),
  webhook_settings: opt(
    z.strictObject({
      webhook_url: opt(z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048)),
      webhook_auth_header: opt(text()),
      webhook_method: opt(
        z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], {
          error: 'must be GET, POST, PUT, PATCH or DELETE',
        }),
      ),
      webhook_headers: opt(
        z
          .record(z.string().max(256), text())
          .refine((h) => Object.keys(h).length <= 100, { error: 'must have at most 100 headers' }),
      ),
    }),
  ),
});

/** PATCH body of access-request settings; every field is optional, unknown keys are refused. */
export const accessRequestSettingsSchema = z.strictObject({
  event_notification_settings: listOf(
    z.strictObject({
      event_type: opt(int()),
      notification_settings: opt(notificationSettings),
      on_success: opt(z.boolean()),
      on_failure: opt(z.boolean()),
      on_success_custom_template_id: opt(text()),
      on_failure_custom_template_id: opt(text()),
    }),
  ),
  admin_approval_settings: opt(approval),
  access_profile_owner_approval_settings: opt(approval),
  app_owner_approval_settings: opt(approval),
  access_profile_requestable_settings: opt(
    z.strictObject({
      allow_all: opt(z.boolean()),
      allow_with_labels: listOf(text()),
      allow_from_types: listOf(text()),
    }),
  ),
  enabled: opt(z.boolean()),
  access_request_event_notification_settings: opt(
    z.strictObject({
      values: listOf(
        z.strictObject({
          event_type: opt(int()),
          notification_type: opt(int()),
          email_setting: opt(
            z.strictObject({
              to_approvers: opt(z.boolean()),
              to_creator: opt(z.boolean()),
              to_beneficiary: opt(z.boolean()),
              to_watchers: opt(z.boolean()),
              other_emails: listOf(email()),
            }),
          ),
          notification_id: opt(text()),
        }),
      ),
    }),
  ),
  available_explanations: listOf(text()),
  delegations: opt(
    z.strictObject({
      delegations: listOf(z.strictObject({ original_user: text(), delegate_user: text() })),
    }),
  ),
  deny_requesters: listOf(text()),
  deny_approvers: listOf(text()),
  actions_require_sso_login: listOf(int()),
});
export type AccessRequestSettings = z.infer<typeof accessRequestSettingsSchema>;
