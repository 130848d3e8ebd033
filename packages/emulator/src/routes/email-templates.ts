/**
 * Email notification templates under `/api/preview/notifications/email_templates`: list, create,
 * get, update (PUT on `value.id`), delete, and `:test_template`, which renders a template with the
 * usage's sample data and sends it to the emulator's SMTP server. One custom template per usage;
 * a usage without one uses its shipped default (read-only, id `default_<usage>`).
 */
import {
  emailTemplateRequestSchema,
  emailTemplateTestRequestSchema,
  type EmailTemplateInput,
} from '@oaakit/core';
import type { FastifyInstance } from 'fastify';
import { ADMIN, allow, ANY_KEY } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';
import { parseBody } from '../http/parse-body.js';
import { defaultTemplateById, type TemplateRecord } from '../notifications/default-templates.js';
import { templateHtml } from '../notifications/template-body.js';
import {
  customTemplate,
  customTemplateOfUsage,
  deleteTemplate,
  effectiveTemplates,
  insertTemplate,
  updateTemplate,
} from '../store/email-templates.js';
import { sendTestMail } from '../notifications/test-mail.js';

const BASE = '/api/preview/notifications/email_templates';
/** Largest request body: a template body is at most 256 KiB of HTML, about 350 KB of base64. */
const BODY_LIMIT = 1024 * 1024;

function checked(input: EmailTemplateInput): EmailTemplateInput {
  templateHtml(input.body_template_base64, 'value.body_template_base64');
  return input;
}

function usageTaken(ctx: EmulatorContext, input: EmailTemplateInput, except?: string): void {
  const other = customTemplateOfUsage(ctx.db, input.usage);
  if (other !== undefined && other.id !== except)
    throw badField(
      'value.usage',
      `${input.usage} already has a custom template (${other.id}): update it (PUT) or delete it first; one custom template per usage`,
    );
}

function requireTemplate(ctx: EmulatorContext, id: string): TemplateRecord {
  const found = customTemplate(ctx.db, id) ?? defaultTemplateById(id);
  if (found === undefined) throw notFound('email template', id);
  return found;
}

function readOnly(id: string, action: string): never {
  throw badField(
    'id',
    `${id} is a default template and cannot be ${action}: create a template for its usage (POST) to replace it`,
  );
}

/** Registers the template routes. */
export function registerEmailTemplateRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const write = { ...allow(ADMIN), bodyLimit: BODY_LIMIT };

  app.get(BASE, allow(ANY_KEY), () => ({
    values: effectiveTemplates(ctx.db),
    next_page_token: '',
    has_more: false,
  }));

  app.post(BASE, write, (req) => {
    const { value } = parseBody(emailTemplateRequestSchema, req.body);
    const input = checked(value);
    if (input.id != null) throw badField('value.id', 'is assigned by the service: leave it out on create');
    return ctx.db.transaction(() => {
      usageTaken(ctx, input);
      return { value: insertTemplate(ctx.db, input, ctx.clock.iso()) };
    })();
  });

  app.post(`${BASE}::test_template`, write, (req) =>
    sendTestMail(ctx, parseBody(emailTemplateTestRequestSchema, req.body)),
  );

  app.get<{ Params: { id: string } }>(`${BASE}/:id`, allow(ANY_KEY), (req) => ({
    value: requireTemplate(ctx, req.params.id),
  }));

  app.put<{ Params: { id: string } }>(`${BASE}/:id`, write, (req) => {
    const { id } = req.params;
    const { value } = parseBody(emailTemplateRequestSchema, req.body);
    const input = checked(value);
    if (input.id != null && input.id !== id)
      throw badField('value.id', `must be the id in the path (${id}) or left out`);
    return ctx.db.transaction(() => {
      const before = requireTemplate(ctx, id);
      if (before.is_default) readOnly(id, 'changed');
      usageTaken(ctx, input, id);
      return { value: updateTemplate(ctx.db, before, input, ctx.clock.iso()) };
    })();
  });

  app.delete<{ Params: { id: string } }>(`${BASE}/:id`, allow(ADMIN), (req) => {
    const { id } = req.params;
    if (defaultTemplateById(id) !== undefined) readOnly(id, 'deleted');
    if (!deleteTemplate(ctx.db, id)) throw notFound('email template', id);
    return {};
  });
}
