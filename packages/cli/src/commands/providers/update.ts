import { Args, Flags } from '@oclif/core';
import type { Provider, ProviderUpdate } from '@oaakit/client';
import { OaaError } from '@oaakit/core';
import { ServiceCommand } from '../../service-command.js';
import { findProvider } from '../../target/lookup.js';

/** `oaa providers update PROVIDER --provisioning | --no-provisioning`. */
export default class ProvidersUpdate extends ServiceCommand {
  static override summary = 'Change settings of a custom provider.';
  static override description =
    'Changes the provider with this name (or id). --provisioning makes an hris provider the system of record for lifecycle-management policies (who joins, moves and leaves); --no-provisioning turns that off. Only hris providers take it. Exit codes: 2 the service refused the change (e.g. a provider of another template), 5 the API key or its role was refused, 7 no such provider, 64 no change given.';
  static override examples = [
    {
      description: 'Make an HRIS provider the system of record',
      command: '<%= config.bin %> <%= command.id %> "Workday" --provisioning',
    },
    {
      description: 'Stop using it as the system of record',
      command: '<%= config.bin %> <%= command.id %> "Workday" --no-provisioning',
    },
  ];

  static override args = { provider: Args.string({ description: 'provider name or id', required: true }) };
  static override flags = {
    provisioning: Flags.boolean({
      description: 'make this hris provider the system of record (--no-provisioning: stop)',
      allowNo: true,
    }),
  };

  async run(): Promise<Provider> {
    const { args, flags } = await this.parse(ProvidersUpdate);
    // Checked before connecting: a command that would change nothing is a usage mistake.
    if (flags.provisioning === undefined) {
      throw new OaaError('nothing to change: give --provisioning or --no-provisioning', {
        code: 'USAGE',
        hints: [`\`${this.config.bin} providers update --help\` lists what can be changed`],
      });
    }
    const changes: ProviderUpdate = { provisioning: flags.provisioning };
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, args.provider, this.signal);
    const updated = await client.providers.update(provider.id, changes, { signal: this.signal });
    this.log(
      updated.provisioning === true
        ? `Provider "${updated.name}" is now the system of record (provisioning on).`
        : `Provider "${updated.name}" is not the system of record (provisioning off).`,
    );
    return updated;
  }
}
