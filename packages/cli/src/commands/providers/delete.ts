import { Args } from '@oclif/core';
import { ServiceCommand } from '../../service-command.js';
import { findProvider } from '../../target/lookup.js';

/** `oaa providers delete NAME|ID`. */
export default class ProvidersDelete extends ServiceCommand {
  static override summary = 'Delete a custom provider and its data sources.';
  static override description =
    'Deletes the provider with this name (or id), with all its data sources and pushed data.';
  static override examples = [
    { description: 'By name', command: '<%= config.bin %> <%= command.id %> "Wiki"' },
  ];
  static override args = { provider: Args.string({ description: 'provider name or id', required: true }) };

  async run(): Promise<{ deleted: { id: string; name: string } }> {
    const { args, flags } = await this.parse(ProvidersDelete);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, args.provider, this.signal);
    await client.providers.delete(provider.id, { signal: this.signal });
    this.log(`Deleted provider "${provider.name}" [${provider.id}].`);
    return { deleted: { id: provider.id, name: provider.name } };
  }
}
