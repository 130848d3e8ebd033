import type { AccessRequestSettings } from '@oaakit/core';
import { ServiceCommand } from '../../../service-command.js';

/** `oaa settings access-requests get`. */
export default class AccessRequestsGet extends ServiceCommand {
  static override summary = 'Show the access-request settings.';
  static override description =
    'Prints the current access-request settings as JSON. The service offers no read of these settings: this works against the emulator (it reads /_emulator/access_request_settings, which needs an admin key).';
  static override examples = [
    { description: 'Print them', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Whether access requests are enabled',
      command: "<%= config.bin %> <%= command.id %> --json | jq '.enabled'",
    },
  ];

  async run(): Promise<AccessRequestSettings> {
    const { flags } = await this.parse(AccessRequestsGet);
    const { client } = await this.connect(flags);
    const settings = await client.accessRequests.getSettings({ signal: this.signal });
    this.log(JSON.stringify(settings, null, 2));
    return settings;
  }
}
