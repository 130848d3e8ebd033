import { Args, Flags } from '@oclif/core';
import type { EmailTemplate } from '@oaakit/core';
import { OaaError } from '@oaakit/core';
import { findTemplate, usageOf } from '../../../notifications/find-template.js';
import { readInputFile } from '../../../payload/read-payload-file.js';
import { ServiceCommand } from '../../../service-command.js';

/** `oaa notifications templates set USAGE [--name] [--subject] [--body-file]`. */
export default class TemplatesSet extends ServiceCommand {
  static override summary = 'Set the custom email template of a notification usage.';
  static override description =
    'Creates the custom template of this usage, or changes it when it has one (one custom template per usage). Fields not given keep their current value: those of the custom template, or of the default for a usage without one. Subjects and bodies hold placeholders in double braces, e.g. {{review_name}}; `notifications templates test` shows which ones a usage offers. Exit codes: 2 the service refused a field, 5 the API key or its role was refused, 64 no field given or an unknown usage.';
  static override examples = [
    {
      description: 'A custom subject and body for review kick-off mails',
      command:
        '<%= config.bin %> <%= command.id %> ACCESS_WORKFLOW_STARTED --subject "Please review {{review_name}}" --body-file kickoff.html',
    },
    {
      description: 'Rename it',
      command: '<%= config.bin %> <%= command.id %> ACCESS_WORKFLOW_STARTED --name "Kick-off"',
    },
  ];

  static override args = {
    usage: Args.string({ description: 'notification usage value, e.g. ASSESSMENT_RULE', required: true }),
  };
  static override flags = {
    name: Flags.string({ description: 'template name' }),
    subject: Flags.string({ description: 'subject template' }),
    'body-file': Flags.string({ description: 'HTML file of the body template' }),
  };

  async run(): Promise<EmailTemplate> {
    const { args, flags } = await this.parse(TemplatesSet);
    const usage = usageOf(args.usage);
    if (usage === undefined) {
      throw new OaaError(`unknown notification usage "${args.usage}"`, {
        code: 'USAGE',
        hints: ['`oaa notifications templates list` shows every usage value'],
      });
    }
    if (flags.name === undefined && flags.subject === undefined && flags['body-file'] === undefined) {
      throw new OaaError('nothing to set: give --name, --subject or --body-file', {
        code: 'USAGE',
        hints: [`\`${this.config.bin} notifications templates set --help\` shows an example`],
      });
    }
    const body =
      flags['body-file'] === undefined
        ? undefined
        : (await readInputFile(flags['body-file'])).toString('base64');
    const { client } = await this.connect(flags);
    const current = await findTemplate(client, usage, this.signal);
    const fields = {
      usage,
      name: flags.name ?? (current.is_default === true ? `Custom: ${usage}` : current.name),
      subject_template: flags.subject ?? current.subject_template,
      body_template_base64: body ?? current.body_template_base64,
    };
    const options = { signal: this.signal };
    const saved =
      current.is_default === true || current.id == null
        ? await client.emailTemplates.create(fields, options)
        : await client.emailTemplates.update(current.id, fields, options);
    this.log(
      `${current.is_default === true ? 'Created' : 'Updated'} the custom template of ${usage} (${saved.id ?? '-'}).`,
    );
    return saved;
  }
}
