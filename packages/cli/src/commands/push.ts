import { Args, Flags } from '@oclif/core';
import type { PushWarning } from '@oaakit/client';
import { TEMPLATES } from '@oaakit/core';
import type { Template, Violation } from '@oaakit/core';
import { formatBytes, plural } from '../output/format.js';
import { renderFields } from '../output/table.js';
import { checkPayloadFile } from '../payload/check-payload.js';
import { describeTemplate } from '../payload/guess-template.js';
import { ServiceCommand } from '../service-command.js';
import { resolveProviderForPush } from '../target/provider-for-push.js';

/** What `oaa push --json` prints. */
export interface PushOutput {
  file: string;
  template: Template;
  templateGuessed: boolean;
  provider: { id: string; name: string; created: boolean };
  dataSource: { id: string; name: string; created: boolean };
  mode: 'single' | 'multipart';
  chunks: number;
  bytes: { file: number; json: number | null; compressed: number };
  warnings: PushWarning[];
  validationWarnings: Violation[];
}

/** `oaa push FILE`: validate a payload file, then push it to a data source. */
export default class Push extends ServiceCommand {
  static override summary = 'Validate a payload file and push it to a data source.';
  static override description = `The payload (JSON, or gzip-compressed JSON) is validated first; nothing is pushed when it has errors. The provider must exist unless --create-provider is given; the data source is reused by name or created. The push is gzip-compressed and goes out as one request, or as a multipart upload above the service's 100 MB limit. The service's warnings are printed with a summary.

Exit codes: 2 the payload failed validation, or the service refused it or the --provider / --data-source name (each field violation is listed), 4 the service failed or could not be reached, 5 the API key was refused (401) or its role does not allow the call (403), 7 the provider does not exist (see --create-provider).`;

  static override examples = [
    {
      description: 'Push to an existing provider',
      command: '<%= config.bin %> <%= command.id %> app.json --provider "Wiki" --data-source "wiki-prod"',
    },
    {
      description: 'Create the provider on first push',
      command:
        '<%= config.bin %> <%= command.id %> hr.json.gz --provider "HR" --data-source main --template hris --create-provider',
    },
  ];

  static override args = { file: Args.string({ description: 'payload file (JSON or .gz)', required: true }) };
  static override flags = {
    provider: Flags.string({ description: 'provider name (or id)', required: true }),
    'data-source': Flags.string({
      description: 'data source name (or id); created when missing',
      required: true,
    }),
    template: Flags.option({
      char: 't',
      description: 'payload template (default: guessed from the payload)',
      options: TEMPLATES,
    })(),
    'create-provider': Flags.boolean({
      description: "create the provider, with the payload's template, when it does not exist",
    }),
  };

  async run(): Promise<PushOutput> {
    const { args, flags } = await this.parse(Push);
    const checked = await checkPayloadFile(args.file, flags.template);
    if (checked.guessed) this.log(`Template: ${describeTemplate(checked)}`);
    const { client } = await this.connect(flags);
    const signal = this.signal;
    const { provider, created } = await resolveProviderForPush({
      client,
      ref: flags.provider,
      template: checked.template,
      create: flags['create-provider'],
      signal,
    });
    const ds = await client.dataSources.findOrCreate({
      providerId: provider.id,
      name: flags['data-source'],
      signal,
    });
    const result = await client.pushPayload({
      providerId: provider.id,
      dataSourceId: ds.dataSource.id,
      payload: checked.payload,
      signal,
    });
    const output: PushOutput = {
      file: args.file,
      template: checked.template,
      templateGuessed: checked.guessed,
      provider: { id: provider.id, name: provider.name, created },
      dataSource: { id: ds.dataSource.id, name: ds.dataSource.name, created: ds.created },
      mode: result.mode,
      chunks: result.chunks,
      bytes: { file: checked.fileBytes, json: result.jsonBytes ?? null, compressed: result.compressedBytes },
      warnings: result.warnings,
      validationWarnings: checked.warnings,
    };
    this.printSummary(output);
    return output;
  }

  private printSummary(out: PushOutput): void {
    const made = (created: boolean): string => (created ? ' (created)' : '');
    this.log(`Pushed ${out.file}`);
    this.log(
      renderFields([
        ['provider', `${out.provider.name} [${out.provider.id}]${made(out.provider.created)}`],
        ['data source', `${out.dataSource.name} [${out.dataSource.id}]${made(out.dataSource.created)}`],
        ['template', out.template],
        ['mode', out.mode === 'single' ? 'single push' : `multipart, ${plural(out.chunks, 'chunk')}`],
        [
          'bytes',
          `${out.bytes.json === null ? '' : `${formatBytes(out.bytes.json)} JSON, `}${formatBytes(out.bytes.compressed)} gzip`,
        ],
        ['warnings', out.warnings.length],
      ]),
    );
    if (out.warnings.length > 0) this.log(`Service warnings (${out.warnings.length}):`);
    for (const w of out.warnings) this.log(`  ${w.message}`);
  }
}
