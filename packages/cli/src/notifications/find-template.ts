/**
 * Finds an email notification template named on the command line: by usage value (the template
 * that usage uses, its custom one or the default), else by id.
 */
import { ServiceError } from '@oaakit/client';
import type { Client } from '@oaakit/client';
import { NOTIFICATION_USAGES, OaaError } from '@oaakit/core';
import type { EmailTemplate, NotificationUsage } from '@oaakit/core';

/** The usage value `ref` names (without case), or undefined. */
export function usageOf(ref: string): NotificationUsage | undefined {
  return NOTIFICATION_USAGES.find((u) => u === ref.toUpperCase());
}

/** The template of this usage or id; `EMAIL_TEMPLATE_NOT_FOUND` otherwise. */
export async function findTemplate(
  client: Client,
  ref: string,
  signal?: AbortSignal,
): Promise<EmailTemplate> {
  const usage = usageOf(ref);
  if (usage !== undefined) {
    const found = (await client.emailTemplates.list({ signal })).find((t) => t.usage === usage);
    if (found !== undefined) return found;
  } else {
    try {
      return await client.emailTemplates.get(ref, { signal });
    } catch (error) {
      if (!(error instanceof ServiceError && (error.status === 404 || error.status === 400))) throw error;
    }
  }
  throw new OaaError(`no email template with id or usage "${ref}"`, {
    code: 'EMAIL_TEMPLATE_NOT_FOUND',
    details: { template: ref },
    hints: ['`oaa notifications templates list` shows every template with its id and usage'],
  });
}

/** The HTML of a template's body. */
export function bodyHtml(template: EmailTemplate): string {
  return Buffer.from(template.body_template_base64, 'base64').toString('utf8');
}
