import { Args } from '@oclif/core';
import { ServiceCommand } from '../../service-command.js';

/** `oaa tags remove NODE_ID KEY`. */
export default class TagsRemove extends ServiceCommand {
  static override summary = 'Remove a tag from a graph node.';
  static override description =
    'Removes the tag with this key (every value of it) from the node with this id. This is the only way a tag goes: a new push never removes one.';
  static override examples = [
    { description: 'Remove "owner"', command: '<%= config.bin %> <%= command.id %> 6f1c2a3e-... owner' },
  ];
  static override args = {
    nodeId: Args.string({ description: 'node id', required: true }),
    key: Args.string({ description: 'tag key', required: true }),
  };

  async run(): Promise<{ node_id: string; removed: string }> {
    const { args, flags } = await this.parse(TagsRemove);
    const { client } = await this.connect(flags);
    await client.graph.removeTag({ nodeId: args.nodeId, key: args.key, signal: this.signal });
    this.log(`Removed tag ${args.key} from node ${args.nodeId}.`);
    return { node_id: args.nodeId, removed: args.key };
  }
}
