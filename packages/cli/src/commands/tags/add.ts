import { Args } from '@oclif/core';
import type { Tag } from '@oaakit/core';
import { parseTags } from '../../graph/tag-args.js';
import { ServiceCommand } from '../../service-command.js';

/** `oaa tags add NODE_ID key=value...`. */
export default class TagsAdd extends ServiceCommand {
  static override summary = 'Apply tags to a graph node.';
  static override description = [
    'Applies tags (key=value, or a bare key for a tag without a value) to the node with this id: the',
    'id column of oaa query nodes. A key applied again takes the new value. A new push never removes',
    'a tag; oaa tags remove does. Keys are letters, digits and underscores; values letters, digits,',
    'spaces and ,@.-',
  ].join('\n');
  static override examples = [
    {
      description: 'Two tags',
      command: '<%= config.bin %> <%= command.id %> 6f1c2a3e-... owner=team_a reviewed',
    },
  ];
  static override strict = false;
  static override args = {
    nodeId: Args.string({ description: 'node id', required: true }),
    tags: Args.string({ description: 'key=value (repeat)', required: true }),
  };

  async run(): Promise<{ node_id: string; tags: Tag[] }> {
    const { args, argv, flags } = await this.parse(TagsAdd);
    const tags = parseTags((argv as string[]).slice(1));
    const { client } = await this.connect(flags);
    await client.graph.addTags({ nodeId: args.nodeId, tags, signal: this.signal });
    this.log(
      `Tagged node ${args.nodeId}: ${tags.map((t) => (t.value == null ? t.key : `${t.key}=${t.value}`)).join(', ')}`,
    );
    return { node_id: args.nodeId, tags };
  }
}
