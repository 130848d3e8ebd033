import type { EmailTemplate, EmailTemplateTestResult } from '@oaakit/core';
import type { Api } from '../api.js';
import { pathSegment } from '../filter.js';
import type { Page } from '../types.js';
import type { CallOptions } from './list-options.js';

/** Base path of email notification templates (a preview endpoint). */
export const EMAIL_TEMPLATES = '/api/preview/notifications/email_templates';

/**
 * The fields a create or update sends, inside `value`. `usage` is any text: the spec lists the
 * access-review and access-security values (`NOTIFICATION_USAGES` of `@oaakit/core`, all the
 * emulator takes) and says lifecycle-management values exist without naming them.
 */
export type EmailTemplateFields = Pick<
  EmailTemplate,
  'name' | 'subject_template' | 'body_template_base64' | 'usage'
>;

type Sent = EmailTemplateFields & { id?: string | null | undefined };

/** Email notification templates: one custom template per usage value, else the default. */
export interface EmailTemplatesApi {
  /** Every template the service lists (the emulator: the template each usage uses). */
  list(options?: CallOptions): Promise<EmailTemplate[]>;
  get(id: string, options?: CallOptions): Promise<EmailTemplate>;
  /**
   * Creates the custom template of a usage. A lost answer is checked (a custom template of that
   * usage and name) before the create is sent again.
   *
   * @example
   * await client.emailTemplates.create({ name: 'Kick-off', usage: 'ACCESS_WORKFLOW_STARTED',
   *   subject_template: 'Review {{review_name}}', body_template_base64: btoa('<p>Hi</p>') });
   */
  create(template: EmailTemplateFields, options?: CallOptions): Promise<EmailTemplate>;
  /** Replaces a template's fields (`PUT` on `value.id`). */
  update(id: string, template: EmailTemplateFields, options?: CallOptions): Promise<EmailTemplate>;
  /** Deletes a custom template; its usage uses the default again. A retry that finds it gone counts as done. */
  delete(id: string, options?: CallOptions): Promise<void>;
  /**
   * `:test_template`: renders the template with sample data of its usage and sends it by email.
   * Sent once (never retried: a retry could send the mail twice).
   */
  test(
    input: {
      template: EmailTemplateFields | (EmailTemplateFields & { id?: string });
      emails?: string[];
    } & CallOptions,
  ): Promise<EmailTemplateTestResult>;
}

function fields(t: Sent): Sent {
  // Only the spec's fields: a template read back carries others (`is_default`, times).
  return {
    name: t.name,
    subject_template: t.subject_template,
    body_template_base64: t.body_template_base64,
    usage: t.usage,
    ...(t.id == null ? {} : { id: t.id }),
  };
}

/** Binds the email-template resource to a request function. */
export function emailTemplatesApi(api: Api): EmailTemplatesApi {
  const path = (id: string): string => `${EMAIL_TEMPLATES}/${pathSegment(id)}`;
  const self: EmailTemplatesApi = {
    async list(options = {}) {
      const res = await api.call<Page<EmailTemplate>>({
        method: 'GET',
        path: EMAIL_TEMPLATES,
        signal: options.signal,
      });
      return res.values ?? [];
    },
    async get(id, options = {}) {
      return (
        await api.call<{ value: EmailTemplate }>({ method: 'GET', path: path(id), signal: options.signal })
      ).value;
    },
    async create(template, options = {}) {
      const value = fields(template);
      delete value.id;
      const res = await api.call<{ value: EmailTemplate }>(
        { method: 'POST', path: EMAIL_TEMPLATES, body: { value }, signal: options.signal },
        {
          recover: async () => {
            const found = (await self.list(options)).find(
              (t) => t.usage === value.usage && t.name === value.name && t.is_default !== true,
            );
            return found === undefined ? undefined : { value: found };
          },
        },
      );
      return res.value;
    },
    async update(id, template, options = {}) {
      const value = { ...fields(template), id };
      return (
        await api.call<{ value: EmailTemplate }>({
          method: 'PUT',
          path: path(id),
          body: { value },
          signal: options.signal,
        })
      ).value;
    },
    async delete(id, options = {}) {
      await api.call({ method: 'DELETE', path: path(id), signal: options.signal }, 'delete');
    },
    async test({ template, emails, signal }) {
      const body = { value: fields(template), ...(emails === undefined ? {} : { emails }) };
      const res = await api.call<{ value: EmailTemplateTestResult }>(
        { method: 'POST', path: `${EMAIL_TEMPLATES}:test_template`, body, signal },
        'never',
      );
      return res.value;
    },
  };
  return self;
}
