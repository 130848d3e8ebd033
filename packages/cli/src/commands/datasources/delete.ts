import { Args } from '@oclif/core';
import { providerFlag } from '../../provider-flag.js';
import { ServiceCommand } from '../../service-command.js';
import { findDataSource, findProvider } from '../../target/lookup.js';

/** `oaa datasources delete NAME|ID --provider P`. */
export default class DataSourcesDelete extends ServiceCommand {
  static override summary = 'Delete a data source and its pushed data.';
  static override description = 'Deletes the data source with this name (or id) under the provider.';
  static override examples = [
    { description: 'By name', command: '<%= config.bin %> <%= command.id %> main --provider "HR"' },
  ];
  static override args = {
    dataSource: Args.string({ description: 'data source name or id', required: true }),
  };
  static override flags = { provider: providerFlag };

  async run(): Promise<{ deleted: { id: string; name: string }; provider: { id: string; name: string } }> {
    const { args, flags } = await this.parse(DataSourcesDelete);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, flags.provider, this.signal);
    const dataSource = await findDataSource(client, provider, args.dataSource, this.signal);
    await client.dataSources.delete({
      providerId: provider.id,
      dataSourceId: dataSource.id,
      signal: this.signal,
    });
    this.log(`Deleted data source "${dataSource.name}" [${dataSource.id}] of provider "${provider.name}".`);
    return {
      deleted: { id: dataSource.id, name: dataSource.name },
      provider: { id: provider.id, name: provider.name },
    };
  }
}
