import { Args, Flags } from '@oclif/core';
import type { EmailTemplateTestResult } from '@oaakit/core';
import { findTemplate } from '../../../notifications/find-template.js';
import { ServiceCommand } from '../../../service-command.js';

/** `oaa notifications templates test ID|USAGE [--to EMAIL]...`. */
export default class TemplatesTest extends ServiceCommand {
  static override summary = 'Send a test message of an email template.';
  static override description =
    'Renders the template (by id, or the one a usage uses) with sample data of its usage and has the service send it by email (`:test_template`). The emulator sends it to the SMTP server it was started with (--smtp) and answers the rendered subject and any placeholder the usage does not offer. Sent once, never retried.';
  static override examples = [
    {
      description: 'Test the review kick-off mail',
      command: '<%= config.bin %> <%= command.id %> ACCESS_WORKFLOW_STARTED --to me@example.com',
    },
  ];

  static override args = {
    template: Args.string({ description: 'template id or usage value', required: true }),
  };
  static override flags = {
    to: Flags.string({ description: 'recipient (repeatable; default: the service decides)', multiple: true }),
  };

  async run(): Promise<EmailTemplateTestResult> {
    const { args, flags } = await this.parse(TemplatesTest);
    const { client } = await this.connect(flags);
    const template = await findTemplate(client, args.template, this.signal);
    const result = await client.emailTemplates.test({
      template,
      ...(flags.to === undefined ? {} : { emails: flags.to }),
      signal: this.signal,
    });
    const to = result.recipients?.join(', ') ?? flags.to?.join(', ') ?? 'the default recipient';
    this.log(`Sent a test of ${template.usage} to ${to}.`);
    if (result.subject != null) this.log(`Subject: ${result.subject}`);
    if (result.unknown_placeholders?.length)
      this.log(
        `Placeholders ${template.usage} does not offer (left as written): ${result.unknown_placeholders.join(', ')}`,
      );
    return result;
  }
}
