import { Args } from '@oclif/core';
import { findTemplate } from '../../../notifications/find-template.js';
import { ServiceCommand } from '../../../service-command.js';

/** What `oaa notifications templates delete --json` prints. */
interface DeleteOutput {
  usage: string;
  /** The custom template deleted; null when the usage already used its default. */
  deleted: string | null;
}

/** `oaa notifications templates delete ID|USAGE`. */
export default class TemplatesDelete extends ServiceCommand {
  static override summary = 'Delete a custom email template; its usage goes back to the default.';
  static override description =
    'Deletes the custom template with this id, or the custom template of this usage value. The usage then uses the default template again. A usage that already uses its default is left as it is (exit 0).';
  static override examples = [
    {
      description: 'Back to the default for rule alerts',
      command: '<%= config.bin %> <%= command.id %> ASSESSMENT_RULE',
    },
  ];

  static override args = {
    template: Args.string({ description: 'template id or usage value', required: true }),
  };

  async run(): Promise<DeleteOutput> {
    const { args, flags } = await this.parse(TemplatesDelete);
    const { client } = await this.connect(flags);
    const template = await findTemplate(client, args.template, this.signal);
    if (template.is_default === true || template.id == null) {
      this.log(`${template.usage} uses its default template already; nothing to delete.`);
      return { usage: template.usage, deleted: null };
    }
    await client.emailTemplates.delete(template.id, { signal: this.signal });
    this.log(`Deleted ${template.id}; ${template.usage} uses its default template again.`);
    return { usage: template.usage, deleted: template.id };
  }
}
