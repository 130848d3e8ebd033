import { Args } from '@oclif/core';
import { ServiceCommand } from '../../../service-command.js';
import { findProvider } from '../../../target/lookup.js';

/** `oaa providers icon delete PROVIDER`. */
export default class IconDelete extends ServiceCommand {
  static override summary = "Remove a provider's icon.";
  static override description =
    'Removes the icon of the provider with this name (or id); the default icon is shown again.';
  static override examples = [
    { description: 'By name', command: '<%= config.bin %> <%= command.id %> "Wiki"' },
  ];
  static override args = { provider: Args.string({ description: 'provider name or id', required: true }) };

  async run(): Promise<{ provider: { id: string; name: string }; deleted: true }> {
    const { args, flags } = await this.parse(IconDelete);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, args.provider, this.signal);
    await client.icons.delete(provider.id, { signal: this.signal });
    this.log(`Removed the icon of provider "${provider.name}".`);
    return { provider: { id: provider.id, name: provider.name }, deleted: true };
  }
}
