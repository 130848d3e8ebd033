/**
 * The templates the emulator ships, one per usage value of the spec: what a usage uses while it
 * has no custom template, and again once its custom template is deleted. They are read-only and
 * have the id `default_<usage in lower case>`.
 */
import { NOTIFICATION_USAGES, type NotificationUsage } from '@oaakit/core';

/** A template record as the emulator answers it. */
export interface TemplateRecord {
  id: string;
  name: string;
  subject_template: string;
  body_template_base64: string;
  usage: NotificationUsage;
  /** True for a shipped default (read-only). */
  is_default: boolean;
  created_at: string | null;
  updated_at: string | null;
}

const DEFAULT_PREFIX = 'default_';

const TEXTS: Record<NotificationUsage, { subject: string; lines: string[] }> = {
  ACCESS_WORKFLOW_STARTED: {
    subject: 'Access review started: {{review_name}}',
    lines: ['The access review {{review_name}} has started.', 'Please complete it by {{due_date}}.'],
  },
  ACCESS_WORKFLOW_COMPLETED: {
    subject: 'Access review completed: {{review_name}}',
    lines: ['The access review {{review_name}} was completed at {{completed_at}}.'],
  },
  ACCESS_WORKFLOW_REVIEWER_CHANGED: {
    subject: 'You are now a reviewer of {{review_name}}',
    lines: ['{{owner_name}} made you a reviewer of {{review_name}} in place of {{previous_reviewer_name}}.'],
  },
  ACCESS_WORKFLOW_OWNER_CHANGED: {
    subject: 'You now own the access review {{review_name}}',
    lines: ['You are the owner of {{review_name}} in place of {{previous_owner_name}}.'],
  },
  ACCESS_WORKFLOW_REMINDER_NO_ACTIVITY: {
    subject: 'Reminder: no activity on {{review_name}} for {{days_inactive}} days',
    lines: ['{{rows_pending}} of {{rows_total}} rows of {{review_name}} are still pending.'],
  },
  ACCESS_WORKFLOW_REMINDER_DUE: {
    subject: 'Reminder: {{review_name}} is due in {{days_left}} days',
    lines: ['{{rows_pending}} of {{rows_total}} rows are still pending; the review is due on {{due_date}}.'],
  },
  ACCESS_WORKFLOW_DIGEST_NOTIFICATION: {
    subject: 'Your access reviews: {{reviews_open}} open',
    lines: ['You have {{reviews_open}} open access reviews, among them {{review_name}} (due {{due_date}}).'],
  },
  ACCESS_WORKFLOW_REVIEW_ALERT: {
    subject: 'Access review alert: {{review_name}}',
    lines: ['{{alert_message}}'],
  },
  ACCESS_WORKFLOW_ROW_ACCEPTED_AND_SIGNEDOFF: {
    subject: 'Access accepted and signed off: {{identity_name}}',
    lines: ['{{decided_by}} accepted {{permission_name}} of {{identity_name}} on {{resource_name}}.'],
  },
  ACCESS_WORKFLOW_ROW_REJECTED_AND_SIGNEDOFF: {
    subject: 'Access rejected and signed off: {{identity_name}}',
    lines: ['{{decided_by}} rejected {{permission_name}} of {{identity_name}} on {{resource_name}}.'],
  },
  ASSESSMENT_RULE: {
    subject: 'Rule triggered: {{rule_name}} ({{rule_severity}})',
    lines: ['The rule {{rule_name}} found {{results_count}} results for {{query_name}}.'],
  },
  ASSESSMENT_RISK: {
    subject: 'Risk found: {{risk_name}} ({{risk_level}})',
    lines: ['{{results_count}} results of {{query_name}} carry the risk {{risk_name}}.'],
  },
};

function defaultBody(lines: readonly string[]): string {
  const paragraphs = lines.map((l) => `    <p>${l}</p>`).join('\n');
  return `<!DOCTYPE html>
<html>
  <body>
    <p>Hello {{recipient_name}},</p>
${paragraphs}
    <p><a href="{{link}}">Open {{tenant_name}}</a></p>
  </body>
</html>
`;
}

/** The id of the default template of `usage`. */
export function defaultTemplateId(usage: NotificationUsage): string {
  return `${DEFAULT_PREFIX}${usage.toLowerCase()}`;
}

/** The shipped default of `usage`. */
export function defaultTemplate(usage: NotificationUsage): TemplateRecord {
  const { subject, lines } = TEXTS[usage];
  return {
    id: defaultTemplateId(usage),
    name: `Default: ${usage}`,
    subject_template: subject,
    body_template_base64: Buffer.from(defaultBody(lines), 'utf8').toString('base64'),
    usage,
    is_default: true,
    created_at: null,
    updated_at: null,
  };
}

/** The default whose id is `id`, or undefined. */
export function defaultTemplateById(id: string): TemplateRecord | undefined {
  if (!id.startsWith(DEFAULT_PREFIX)) return undefined;
  const usage = NOTIFICATION_USAGES.find((u) => defaultTemplateId(u) === id);
  return usage === undefined ? undefined : defaultTemplate(usage);
}
