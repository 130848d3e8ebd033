/**
 * Custom email notification templates, at most one per usage value (the table's `usage` is unique).
 * A usage without one uses the shipped default (notifications/default-templates.ts).
 */
import { randomUUID } from 'node:crypto';
import { NOTIFICATION_USAGES, type EmailTemplateInput, type NotificationUsage } from '@oaakit/core';
import type { Db } from '../db/schema.js';
import { defaultTemplate, type TemplateRecord } from '../notifications/default-templates.js';

function fromRow(row: { record: string }): TemplateRecord {
  return JSON.parse(row.record) as TemplateRecord;
}

/** The custom template `id`, or undefined. */
export function customTemplate(db: Db, id: string): TemplateRecord | undefined {
  const row = db
    .prepare<[string], { record: string }>('SELECT record FROM email_templates WHERE id = ?')
    .get(id);
  return row === undefined ? undefined : fromRow(row);
}

/** The custom template of `usage`, or undefined. */
export function customTemplateOfUsage(db: Db, usage: NotificationUsage): TemplateRecord | undefined {
  const row = db
    .prepare<[string], { record: string }>('SELECT record FROM email_templates WHERE usage = ?')
    .get(usage);
  return row === undefined ? undefined : fromRow(row);
}

/** The template each usage uses: its custom one, else the default; in the spec's usage order. */
export function effectiveTemplates(db: Db): TemplateRecord[] {
  const custom = new Map(
    db
      .prepare<[], { record: string }>('SELECT record FROM email_templates')
      .all()
      .map((row) => {
        const t = fromRow(row);
        return [t.usage, t] as const;
      }),
  );
  return NOTIFICATION_USAGES.map((usage) => custom.get(usage) ?? defaultTemplate(usage));
}

/** Stores a new custom template. The caller checks that its usage has none yet. */
export function insertTemplate(db: Db, input: EmailTemplateInput, at: string): TemplateRecord {
  const record: TemplateRecord = {
    id: randomUUID(),
    name: input.name,
    subject_template: input.subject_template,
    body_template_base64: input.body_template_base64,
    usage: input.usage,
    is_default: false,
    created_at: at,
    updated_at: at,
  };
  db.prepare('INSERT INTO email_templates (id, usage, record) VALUES (?, ?, ?)').run(
    record.id,
    record.usage,
    JSON.stringify(record),
  );
  return record;
}

/** Replaces the fields of the custom template `before`. */
export function updateTemplate(
  db: Db,
  before: TemplateRecord,
  input: EmailTemplateInput,
  at: string,
): TemplateRecord {
  const record: TemplateRecord = {
    ...before,
    name: input.name,
    subject_template: input.subject_template,
    body_template_base64: input.body_template_base64,
    usage: input.usage,
    updated_at: at,
  };
  db.prepare('UPDATE email_templates SET usage = ?, record = ? WHERE id = ?').run(
    record.usage,
    JSON.stringify(record),
    record.id,
  );
  return record;
}

/** Deletes the custom template `id`; whether it existed. */
export function deleteTemplate(db: Db, id: string): boolean {
  return db.prepare('DELETE FROM email_templates WHERE id = ?').run(id).changes > 0;
}
