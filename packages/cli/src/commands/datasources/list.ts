import type { DataSource } from '@oaakit/client';
import { DATA_SOURCE_COLUMNS } from '../../output/columns.js';
import { renderTable } from '../../output/table.js';
import { providerFlag } from '../../provider-flag.js';
import { ServiceCommand } from '../../service-command.js';
import { findProvider } from '../../target/lookup.js';

/** `oaa datasources list --provider P`. */
export default class DataSourcesList extends ServiceCommand {
  static override summary = 'List the data sources of a provider.';
  static override description =
    'Lists every data source of the provider: id, name and status (SUCCESS once a push is parsed).';
  static override examples = [
    { description: 'Data sources of "HR"', command: '<%= config.bin %> <%= command.id %> --provider "HR"' },
  ];
  static override flags = { provider: providerFlag };

  async run(): Promise<DataSource[]> {
    const { flags } = await this.parse(DataSourcesList);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, flags.provider, this.signal);
    const dataSources = await client.dataSources
      .list({ providerId: provider.id, signal: this.signal })
      .toArray();
    this.log(
      dataSources.length === 0
        ? `Provider "${provider.name}" has no data sources.`
        : renderTable(DATA_SOURCE_COLUMNS, dataSources),
    );
    return dataSources;
  }
}
