/**
 * `POST /console/api/templates/preview`: a template rendered with its usage's sample data, for the
 * templates page's live preview. The same parsing, body check and rendering as the API's
 * `:test_template` (notifications/), without sending mail or recording an event.
 */
import { emailTemplateRequestSchema } from '@oaakit/core';
import { parseBody } from '../../http/parse-body.js';
import { renderTemplate } from '../../notifications/render.js';
import { sampleData } from '../../notifications/sample-data.js';
import { templateHtml } from '../../notifications/template-body.js';

/** What the preview answers. */
export interface TemplatePreview {
  subject: string;
  html: string;
  unknown_placeholders: string[];
  sample_data: Record<string, string>;
}

/** Renders a `{ value: template }` body (the shape create and update take). */
export function previewTemplate(body: unknown): TemplatePreview {
  const { value } = parseBody(emailTemplateRequestSchema, body);
  const html = templateHtml(value.body_template_base64, 'value.body_template_base64');
  const data = sampleData(value.usage);
  const rendered = renderTemplate({ subject: value.subject_template, html }, data);
  return {
    subject: rendered.subject,
    html: rendered.html,
    unknown_placeholders: rendered.unknownPlaceholders,
    sample_data: { ...data },
  };
}
