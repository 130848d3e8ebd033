import { Args } from '@oclif/core';
import type { Provider } from '@oaakit/client';
import { recordFields } from '../../output/columns.js';
import { renderFields } from '../../output/table.js';
import { ServiceCommand } from '../../service-command.js';
import { findProvider } from '../../target/lookup.js';

/** `oaa providers get NAME|ID`. */
export default class ProvidersGet extends ServiceCommand {
  static override summary = 'Show one custom provider.';
  static override description = 'Shows every field of the provider with this name (or id).';
  static override examples = [
    { description: 'By name', command: '<%= config.bin %> <%= command.id %> "HR"' },
  ];
  static override args = { provider: Args.string({ description: 'provider name or id', required: true }) };

  async run(): Promise<Provider> {
    const { args, flags } = await this.parse(ProvidersGet);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, args.provider, this.signal);
    this.log(renderFields(recordFields(provider)));
    return provider;
  }
}
