import { Args, Flags } from '@oclif/core';
import type { Provider, ProviderCreateInput } from '@oaakit/client';
import { LIFECYCLE_MANAGEMENT_TYPES, TEMPLATES } from '@oaakit/core';
import { ServiceCommand } from '../../service-command.js';

/** `oaa providers create NAME --template T`. */
export default class ProvidersCreate extends ServiceCommand {
  static override summary = 'Create a custom provider.';
  static override description =
    "Creates a custom provider with a template. Payloads pushed to it must be of that template. Exit codes: 2 the service refused the name or a flag's value (each field violation is listed), 5 the API key or its role was refused.";
  static override examples = [
    {
      description: 'An application provider',
      command: '<%= config.bin %> <%= command.id %> "Wiki" --template application',
    },
    {
      description: 'A SCIM-managed provider',
      command:
        '<%= config.bin %> <%= command.id %> "Chat" --template application --lifecycle-management SCIM',
    },
  ];

  static override args = { name: Args.string({ description: 'provider name', required: true }) };
  static override flags = {
    template: Flags.option({
      char: 't',
      description: 'payload template',
      options: TEMPLATES,
      required: true,
    })(),
    'lifecycle-management': Flags.option({
      description: 'external lifecycle management type',
      options: LIFECYCLE_MANAGEMENT_TYPES,
    })(),
  };

  async run(): Promise<Provider> {
    const { args, flags } = await this.parse(ProvidersCreate);
    const { client } = await this.connect(flags);
    const input: ProviderCreateInput = { name: args.name, template: flags.template };
    const lifecycle = flags['lifecycle-management'];
    if (lifecycle !== undefined) input.external_lifecycle_management_type = lifecycle;
    const provider = await client.providers.create(input, { signal: this.signal });
    this.log(
      `Created provider "${provider.name}" [${provider.id}] with the ${provider.custom_template} template.`,
    );
    return provider;
  }
}
