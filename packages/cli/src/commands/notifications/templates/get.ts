import { writeFile } from 'node:fs/promises';
import { Args, Flags } from '@oclif/core';
import type { EmailTemplate } from '@oaakit/core';
import { bodyHtml, findTemplate } from '../../../notifications/find-template.js';
import { ServiceCommand } from '../../../service-command.js';

/** `oaa notifications templates get ID|USAGE [--out FILE]`. */
export default class TemplatesGet extends ServiceCommand {
  static override summary = 'Show an email notification template.';
  static override description =
    'Shows the template with this id, or the one a usage value uses (e.g. ASSESSMENT_RULE): name, usage, subject and the HTML body. --out writes the HTML body to a file.';
  static override examples = [
    {
      description: 'The template a usage uses',
      command: '<%= config.bin %> <%= command.id %> ACCESS_WORKFLOW_STARTED',
    },
    {
      description: 'Save its HTML body to edit it',
      command: '<%= config.bin %> <%= command.id %> ASSESSMENT_RULE --out rule.html',
    },
  ];

  static override args = {
    template: Args.string({ description: 'template id or usage value', required: true }),
  };
  static override flags = {
    out: Flags.string({ char: 'o', description: 'write the HTML body to this file' }),
  };

  async run(): Promise<EmailTemplate> {
    const { args, flags } = await this.parse(TemplatesGet);
    const { client } = await this.connect(flags);
    const template = await findTemplate(client, args.template, this.signal);
    const html = bodyHtml(template);
    if (flags.out !== undefined) await writeFile(flags.out, html);
    this.log(`id:       ${template.id ?? '-'}`);
    this.log(`name:     ${template.name}`);
    this.log(`usage:    ${template.usage}`);
    this.log(`default:  ${template.is_default === true ? 'yes' : 'no'}`);
    this.log(`subject:  ${template.subject_template}`);
    this.log(flags.out === undefined ? `body:\n${html}` : `body:     written to ${flags.out}`);
    return template;
  }
}
