import type { Provider } from '@oaakit/client';
import { PROVIDER_COLUMNS } from '../../output/columns.js';
import { renderTable } from '../../output/table.js';
import { ServiceCommand } from '../../service-command.js';

/** `oaa providers list`. */
export default class ProvidersList extends ServiceCommand {
  static override summary = 'List the custom providers.';
  static override description =
    'Lists every custom provider of the target, across all pages: id, name, template and state.';
  static override examples = [
    { description: 'Table', command: '<%= config.bin %> <%= command.id %>' },
    { description: 'Names only', command: "<%= config.bin %> <%= command.id %> --json | jq -r '.[].name'" },
  ];

  async run(): Promise<Provider[]> {
    const { flags } = await this.parse(ProvidersList);
    const { client } = await this.connect(flags);
    const providers = await client.providers.list({ signal: this.signal }).toArray();
    this.log(providers.length === 0 ? 'No providers.' : renderTable(PROVIDER_COLUMNS, providers));
    return providers;
  }
}
