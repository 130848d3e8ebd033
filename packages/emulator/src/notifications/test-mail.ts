/**
 * `:test_template`: renders a template with the sample data of its usage and sends the message to
 * the emulator's SMTP server (`smtp` option, `--smtp URL`). Answers what was sent; records an
 * `EMAIL_SENT` event (category NOTIFICATION).
 */
import type { EmailTemplateTestRequest } from '@oaakit/core';
import type { EmulatorContext } from '../context.js';
import { ApiError } from '../errors.js';
import { sendMail } from '../mail/send-mail.js';
import { recordEvent } from '../store/events.js';
import { htmlToText, renderTemplate } from './render.js';
import { sampleData } from './sample-data.js';
import { templateHtml } from './template-body.js';

/** Who receives a test message when the request names nobody. */
export const DEFAULT_TEST_RECIPIENT = 'admin@oaa-emulator.localhost';

/** The answer of `:test_template`. */
export interface TestMailAnswer {
  value: {
    subject: string;
    body_html_base64: string;
    recipients: string[];
    message_id: string;
    /** Placeholders the usage does not offer; left as written in the message. */
    unknown_placeholders: string[];
    /** The placeholders of the usage and the sample values used. */
    sample_data: Record<string, string>;
  };
}

/** Renders and sends; 503 without an SMTP server, 502 when the server cannot be reached. */
export async function sendTestMail(
  ctx: EmulatorContext,
  request: EmailTemplateTestRequest,
): Promise<TestMailAnswer> {
  const { value } = request;
  const html = templateHtml(value.body_template_base64, 'value.body_template_base64');
  if (ctx.smtp === undefined) {
    throw new ApiError('Unavailable', {
      message: 'no SMTP server is configured, so the test message cannot be sent',
      resolution: 'start the emulator with an SMTP server: --smtp smtp://HOST:PORT (option smtp in code)',
    });
  }
  const data = sampleData(value.usage);
  const rendered = renderTemplate({ subject: value.subject_template, html }, data);
  const recipients = [...(request.emails ?? [DEFAULT_TEST_RECIPIENT])];
  let messageId: string;
  try {
    const sent = await sendMail(ctx.smtp, {
      to: recipients,
      subject: rendered.subject,
      text: htmlToText(rendered.html),
      html: rendered.html,
    });
    messageId = sent.messageId;
  } catch (err) {
    const reason = (err as { code?: unknown }).code;
    throw new ApiError('Unavailable', {
      status: 502,
      message: `the SMTP server ${ctx.smtp.host}:${ctx.smtp.port} did not take the message${typeof reason === 'string' ? ` (${reason})` : ''}`,
      resolution: 'check that the SMTP server given with --smtp is running and accepts the recipients',
    });
  }
  const at = ctx.clock.iso();
  recordEvent(ctx.db, {
    timestamp: at,
    category: 'NOTIFICATION',
    severity: 'INFO',
    name: 'Email sent',
    message: `test message of a ${value.usage} template sent to ${recipients.length} recipient(s)`,
    provider_id: null,
    entity: 'NOTIFICATION',
    entity_id: value.id ?? null,
    entity_name: value.name ?? null,
    event_type: 'EMAIL_SENT',
    error: null,
  });
  return {
    value: {
      subject: rendered.subject,
      body_html_base64: Buffer.from(rendered.html, 'utf8').toString('base64'),
      recipients,
      message_id: messageId,
      unknown_placeholders: rendered.unknownPlaceholders,
      sample_data: { ...data },
    },
  };
}
