import { Args } from '@oclif/core';
import type { AccessExplanation } from '@oaakit/core';
import { renderAccess } from '../graph/render-access.js';
import { ServiceCommand } from '../service-command.js';

/** `oaa access USER-OR-IDENTITY`. */
export default class Access extends ServiceCommand {
  static override summary = 'What can this identity reach, with which canonical permissions, and why.';
  static override description = [
    'Lists every application and resource the identity holds permissions on, the canonical permission',
    'types (DataRead, ...) it holds on each, and for each grant the path that gives it: group membership',
    '(nested groups too), identity-provider accounts linked to local users and groups, HRIS employees',
    'linked to identity-provider users, roles (and the nested role a permission comes from), and',
    'permissions inherited by sub-resources. The identity is a node id (from oaa query nodes), or a',
    'name, email or identity; every node it names is answered. The paths come from the emulator',
    '(POST /_emulator/access, an admin key): the service itself offers no such endpoint.',
  ].join('\n');
  static override examples = [
    {
      description: 'By email (an identity-provider user, and the local accounts named by it)',
      command: '<%= config.bin %> <%= command.id %> alice@example.com',
    },
    {
      description: 'By node id, as JSON',
      command: '<%= config.bin %> <%= command.id %> 6f1c2a3e-... --json',
    },
  ];
  static override args = {
    identity: Args.string({ description: 'node id, name, email or identity', required: true }),
  };

  async run(): Promise<{ values: AccessExplanation[] }> {
    const { args, flags } = await this.parse(Access);
    const { client } = await this.connect(flags);
    const values = await client.graph.explainAccess({ identity: args.identity, signal: this.signal });
    this.log(values.map(renderAccess).join('\n\n'));
    return { values };
  }
}
