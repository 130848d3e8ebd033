import { Args, Flags } from '@oclif/core';
import { TEMPLATES } from '@oaakit/core';
import type { Template, Violation } from '@oaakit/core';
import { BaseCommand } from '../base-command.js';
import { plural, violationLines } from '../output/format.js';
import { checkPayloadFile } from '../payload/check-payload.js';
import { describeTemplate } from '../payload/guess-template.js';

/** `oaa validate FILE`: local validation, exactly as the service would judge the payload. */
export default class Validate extends BaseCommand {
  static override summary = 'Validate a payload file locally, as the service would on push.';
  static override description = `Reads a payload file (JSON, or gzip-compressed JSON) and checks it against its template. Every violation is printed as "field: description" with its JSON path; warnings (what the service would accept but report) are printed too. Without --template, the template is guessed from the payload's top-level keys, and the output says so.`;

  static override examples = [
    {
      description: 'Validate an application payload',
      command: '<%= config.bin %> <%= command.id %> payload.json',
    },
    {
      description: 'Validate a gzip file as an hris payload',
      command: '<%= config.bin %> <%= command.id %> employees.json.gz --template hris',
    },
    {
      description: 'Machine-readable result',
      command: '<%= config.bin %> <%= command.id %> payload.json --json',
    },
  ];

  static override args = { file: Args.string({ description: 'payload file (JSON or .gz)', required: true }) };
  static override flags = {
    template: Flags.option({
      char: 't',
      description: 'payload template (default: guessed from the payload)',
      options: TEMPLATES,
    })(),
  };

  async run(): Promise<{
    file: string;
    template: Template;
    templateGuessed: boolean;
    valid: true;
    errors: Violation[];
    warnings: Violation[];
  }> {
    const { args, flags } = await this.parse(Validate);
    const checked = await checkPayloadFile(args.file, flags.template);
    this.log(`${args.file}: ${describeTemplate(checked)}`);
    for (const line of violationLines('Warnings', checked.warnings)) this.log(line);
    this.log(`Valid: no errors, ${plural(checked.warnings.length, 'warning')}.`);
    return {
      file: args.file,
      template: checked.template,
      templateGuessed: checked.guessed,
      valid: true,
      errors: [],
      warnings: checked.warnings,
    };
  }
}
