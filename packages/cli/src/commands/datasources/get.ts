import { Args } from '@oclif/core';
import type { DataSource } from '@oaakit/client';
import { recordFields } from '../../output/columns.js';
import { renderFields } from '../../output/table.js';
import { providerFlag } from '../../provider-flag.js';
import { ServiceCommand } from '../../service-command.js';
import { findDataSource, findProvider } from '../../target/lookup.js';

/** `oaa datasources get NAME|ID --provider P`. */
export default class DataSourcesGet extends ServiceCommand {
  static override summary = 'Show one data source.';
  static override description =
    'Shows every field of the data source with this name (or id) under the provider.';
  static override examples = [
    { description: 'By name', command: '<%= config.bin %> <%= command.id %> main --provider "HR"' },
  ];
  static override args = {
    dataSource: Args.string({ description: 'data source name or id', required: true }),
  };
  static override flags = { provider: providerFlag };

  async run(): Promise<DataSource> {
    const { args, flags } = await this.parse(DataSourcesGet);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, flags.provider, this.signal);
    const dataSource = await findDataSource(client, provider, args.dataSource, this.signal);
    this.log(renderFields(recordFields(dataSource)));
    return dataSource;
  }
}
