/** Email notification templates and access-request settings. */
import * as z from 'zod';
import { opt } from './primitives.js';

export const emailTemplateSchema = z.looseObject({
  id: opt(z.string()),
  name: z.string(),
  subject_template: z.string(),
  body_template_base64: z.string(),
  usage: z.string(),
});
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;

/** Requests wrap the template in `value`. */
export const emailTemplateRequestSchema = z.strictObject({ value: emailTemplateSchema });

const approval = z.strictObject({
  allow_approval_on_request: opt(z.boolean()),
  grant_without_approval: opt(z.boolean()),
});

const notificationSettings = z.strictObject({
  notification_type: opt(z.number().int()),
  notification_id: opt(z.string()),
  email_settings: opt(
    z.strictObject({
      emails: opt(z.array(z.string())),
      extra_email_fields: opt(z.array(z.string())),
      email_formatters: opt(
        z.array(z.strictObject({ formatter: z.string(), pipeline_functions: opt(z.string()) })),
      ),
    }),
  ),
  webhook_settings: opt(
    z.strictObject({
      webhook_url: opt(z.string()),
      webhook_auth_header: opt(z.string()),
      webhook_method: opt(z.string()),
      webhook_headers: opt(z.record(z.string(), z.string())),
    }),
  ),
});

/** PATCH body of access-request settings; every field is optional. */
export const accessRequestSettingsSchema = z.strictObject({
  event_notification_settings: opt(
    z.array(
      z.strictObject({
        event_type: opt(z.number().int()),
        notification_settings: opt(notificationSettings),
        on_success: opt(z.boolean()),
        on_failure: opt(z.boolean()),
        on_success_custom_template_id: opt(z.string()),
        on_failure_custom_template_id: opt(z.string()),
      }),
    ),
  ),
  admin_approval_settings: opt(approval),
  access_profile_owner_approval_settings: opt(approval),
  app_owner_approval_settings: opt(approval),
  access_profile_requestable_settings: opt(
    z.strictObject({
      allow_all: opt(z.boolean()),
      allow_with_labels: opt(z.array(z.string())),
      allow_from_types: opt(z.array(z.string())),
    }),
  ),
  enabled: opt(z.boolean()),
  access_request_event_notification_settings: opt(
    z.strictObject({
      values: opt(
        z.array(
          z.strictObject({
            event_type: opt(z.number().int()),
            notification_type: opt(z.number().int()),
            email_setting: opt(
              z.strictObject({
                to_approvers: opt(z.boolean()),
                to_creator: opt(z.boolean()),
                to_beneficiary: opt(z.boolean()),
                to_watchers: opt(z.boolean()),
                other_emails: opt(z.array(z.string())),
              }),
            ),
            notification_id: opt(z.string()),
          }),
        ),
      ),
    }),
  ),
  available_explanations: opt(z.array(z.string())),
  delegations: opt(
    z.strictObject({
      delegations: opt(z.array(z.strictObject({ original_user: z.string(), delegate_user: z.string() }))),
    }),
  ),
  deny_requesters: opt(z.array(z.string())),
  deny_approvers: opt(z.array(z.string())),
  actions_require_sso_login: opt(z.array(z.number().int())),
});
export type AccessRequestSettings = z.infer<typeof accessRequestSettingsSchema>;
