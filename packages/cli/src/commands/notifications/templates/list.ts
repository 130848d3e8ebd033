import type { EmailTemplate } from '@oaakit/core';
import { renderTable } from '../../../output/table.js';
import { ServiceCommand } from '../../../service-command.js';

/** `oaa notifications templates list`. */
export default class TemplatesList extends ServiceCommand {
  static override summary = 'List the email notification templates.';
  static override description =
    'Lists the template each notification usage uses: its custom template, else the default shipped for it (DEFAULT yes).';
  static override examples = [
    { description: 'Table', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Usages that have a custom template',
      command:
        "<%= config.bin %> <%= command.id %> --json | jq -r '.[] | select(.is_default | not) | .usage'",
    },
  ];

  async run(): Promise<EmailTemplate[]> {
    const { flags } = await this.parse(TemplatesList);
    const { client } = await this.connect(flags);
    const templates = await client.emailTemplates.list({ signal: this.signal });
    this.log(
      templates.length === 0
        ? 'No templates.'
        : renderTable(
            [
              { header: 'ID', get: (t: EmailTemplate) => t.id },
              { header: 'USAGE', get: (t) => t.usage },
              { header: 'NAME', get: (t) => t.name },
              {
                header: 'DEFAULT',
                get: (t) => (t.is_default === true ? 'yes' : t.is_default === false ? 'no' : '-'),
              },
            ],
            templates,
          ),
    );
    return templates;
  }
}
