import { Args } from '@oclif/core';
import type { DataSource } from '@oaakit/client';
import { providerFlag } from '../../provider-flag.js';
import { ServiceCommand } from '../../service-command.js';
import { findProvider } from '../../target/lookup.js';

/** `oaa datasources create NAME --provider P`. */
export default class DataSourcesCreate extends ServiceCommand {
  static override summary = 'Create a data source under a provider.';
  static override description =
    'Creates a data source; each push to it replaces its data. Exit codes: 2 the service refused the name (each field violation is listed), 5 the API key or its role was refused, 7 no such provider.';
  static override examples = [
    {
      description: 'A data source of "HR"',
      command: '<%= config.bin %> <%= command.id %> main --provider "HR"',
    },
  ];
  static override args = { name: Args.string({ description: 'data source name', required: true }) };
  static override flags = { provider: providerFlag };

  async run(): Promise<DataSource> {
    const { args, flags } = await this.parse(DataSourcesCreate);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, flags.provider, this.signal);
    const dataSource = await client.dataSources.create({
      providerId: provider.id,
      name: args.name,
      signal: this.signal,
    });
    this.log(
      `Created data source "${dataSource.name}" [${dataSource.id}] under provider "${provider.name}".`,
    );
    return dataSource;
  }
}
