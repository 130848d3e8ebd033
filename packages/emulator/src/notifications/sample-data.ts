/**
 * The placeholders each notification usage offers, with the sample values `:test_template` renders.
 * The spec names the usage values and says templates hold placeholders in double braces; which
 * placeholders the service offers is not shown, so these are the emulator's (documented in its README).
 */
import type { NotificationUsage } from '@oaakit/core';

/** Placeholder name to sample value. */
export type SampleData = Readonly<Record<string, string>>;

const COMMON: SampleData = {
  recipient_name: 'Alex Morgan',
  recipient_email: 'alex.morgan@example.com',
  tenant_name: 'Example Corp',
  link: 'https://oaa-emulator.localhost/console',
};

const REVIEW: SampleData = {
  review_name: 'Q4 access review: Finance & Payroll',
  owner_name: 'Olivia Owner',
  reviewer_name: 'Riley Reviewer',
  due_date: '2026-12-31',
  rows_total: '42',
  rows_pending: '17',
};

const ROW: SampleData = {
  identity_name: 'sam.taylor@example.com',
  resource_name: 'payroll-db',
  permission_name: 'DataWrite',
  decided_by: 'Riley Reviewer',
};

const ASSESSMENT: SampleData = {
  query_name: 'Users with admin access to production',
  results_count: '3',
};

const BY_USAGE: Record<NotificationUsage, SampleData> = {
  ACCESS_WORKFLOW_STARTED: REVIEW,
  ACCESS_WORKFLOW_COMPLETED: { ...REVIEW, completed_at: '2026-12-20T16:30:00Z' },
  ACCESS_WORKFLOW_REVIEWER_CHANGED: { ...REVIEW, previous_reviewer_name: 'Pat Previous' },
  ACCESS_WORKFLOW_OWNER_CHANGED: { ...REVIEW, previous_owner_name: 'Pat Previous' },
  ACCESS_WORKFLOW_REMINDER_NO_ACTIVITY: { ...REVIEW, days_inactive: '7' },
  ACCESS_WORKFLOW_REMINDER_DUE: { ...REVIEW, days_left: '3' },
  ACCESS_WORKFLOW_DIGEST_NOTIFICATION: { ...REVIEW, reviews_open: '4' },
  ACCESS_WORKFLOW_REVIEW_ALERT: { ...REVIEW, alert_message: 'More than half of the rows are still pending.' },
  ACCESS_WORKFLOW_ROW_ACCEPTED_AND_SIGNEDOFF: { ...REVIEW, ...ROW },
  ACCESS_WORKFLOW_ROW_REJECTED_AND_SIGNEDOFF: { ...REVIEW, ...ROW },
  ASSESSMENT_RULE: { ...ASSESSMENT, rule_name: 'Admin access outside IT', rule_severity: 'HIGH' },
  ASSESSMENT_RISK: { ...ASSESSMENT, risk_name: 'Dormant privileged accounts', risk_level: 'CRITICAL' },
};

/** The placeholders of `usage` and their sample values (the common ones included). */
export function sampleData(usage: NotificationUsage): SampleData {
  return { ...COMMON, ...BY_USAGE[usage] };
}
