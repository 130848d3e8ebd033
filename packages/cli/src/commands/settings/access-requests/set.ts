import { Flags } from '@oclif/core';
import type { AccessRequestSettings } from '@oaakit/core';
import { OaaError } from '@oaakit/core';
import { readInputFile } from '../../../payload/read-payload-file.js';
import { ServiceCommand } from '../../../service-command.js';

/** `oaa settings access-requests set [--file FILE] [--enabled | --no-enabled]`. */
export default class AccessRequestsSet extends ServiceCommand {
  static override summary = 'Change access-request settings.';
  static override description =
    "Sends the fields of a JSON file (any of the service's access-request settings) as a PATCH, plus --enabled / --no-enabled. Only the fields given change: objects merge field by field, a list replaces the stored list, null clears a field. Prints the settings after the change. Exit codes: 2 the service refused a field (unknown keys are refused), 5 the API key or its role was refused, 64 nothing to set or a file that is not a JSON object.";
  static override examples = [
    { description: 'Turn access requests on', command: '<%= config.bin %> <%= command.id %> --enabled' },
    {
      description: 'Set approvals from a file',
      command: '<%= config.bin %> <%= command.id %> --file approvals.json',
    },
  ];

  static override flags = {
    file: Flags.string({ char: 'f', description: 'JSON file with the settings fields to change' }),
    enabled: Flags.boolean({ description: 'turn access requests on (--no-enabled: off)', allowNo: true }),
  };

  async run(): Promise<AccessRequestSettings> {
    const { flags } = await this.parse(AccessRequestsSet);
    let patch: Record<string, unknown> = {};
    if (flags.file !== undefined) {
      const text = (await readInputFile(flags.file)).toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (cause) {
        throw new OaaError(`${flags.file} is not JSON: ${(cause as Error).message}`, {
          code: 'USAGE',
          cause,
        });
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new OaaError(`${flags.file} must hold a JSON object of settings fields`, { code: 'USAGE' });
      patch = parsed as Record<string, unknown>;
    }
    if (flags.enabled !== undefined) patch.enabled = flags.enabled;
    if (Object.keys(patch).length === 0) {
      throw new OaaError('nothing to set: give --file, --enabled or --no-enabled', {
        code: 'USAGE',
        hints: [`\`${this.config.bin} settings access-requests set --help\` shows examples`],
      });
    }
    const { client } = await this.connect(flags);
    // The service validates every field (an unknown key is refused); its violations are shown as they are.
    const settings = await client.accessRequests.updateSettings(patch, {
      signal: this.signal,
    });
    this.log(JSON.stringify(settings, null, 2));
    return settings;
  }
}
