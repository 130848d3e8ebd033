import { Flags } from '@oclif/core';
import type { NodeQueryValue } from '@oaakit/client';
import { nodeQueryOf } from '../../graph/node-query-flags.js';
import { renderTable } from '../../output/table.js';
import { ServiceCommand } from '../../service-command.js';

/** `oaa query nodes --type T [--where 'prop OP value']... [--to TYPE] [--no-relation] [--permission P]`. */
export default class QueryNodes extends ServiceCommand {
  static override summary = 'Find graph nodes, and what they can reach with which canonical permissions.';
  static override description = [
    'Runs a node query over the graph of every data source. --type (with --where conditions) selects the',
    'nodes; --to names destination node types: then each node is listed with how many destinations it',
    'reaches and the canonical permissions it holds on them (--permission keeps only those relations,',
    '--no-relation lists the nodes that reach none). --destinations lists the destinations instead.',
    'Node types are as the graph names them: OAA.<application_type>.User, .Group, .Role, .Application,',
    'OAA.<application_type>.<resource_type>.Resource (.SubResource below), OAA.<idp_type>.IdPUser, ...',
    'Operators of --where: = != ~ (contains) ^= (starts with) $= (ends with) > >= < <=; custom properties',
    "are customprop_<name>. Every page is fetched; only the service's has_more ends the listing.",
  ].join('\n');
  static override examples = [
    {
      description: 'Active users of the Engineering department',
      command:
        "<%= config.bin %> <%= command.id %> --type OAA.wiki.User --where 'customprop_department = Engineering' --where 'is_active = true'",
    },
    {
      description: 'Users who can write to some space, with the permissions they hold',
      command:
        '<%= config.bin %> <%= command.id %> --type OAA.wiki.User --to OAA.wiki.space.Resource --permission DataWrite',
    },
    {
      description: 'Identity-provider users who reach no resource at all',
      command:
        '<%= config.bin %> <%= command.id %> --type OAA.okta.IdPUser --to OAA.wiki.space.Resource --no-relation',
    },
    {
      description: 'Spaces that users can read',
      command:
        '<%= config.bin %> <%= command.id %> --type OAA.wiki.User --to OAA.wiki.space.Resource --permission DataRead --destinations --json',
    },
  ];
  static override flags = {
    type: Flags.string({
      description: 'node type to list (repeat for several)',
      required: true,
      multiple: true,
    }),
    where: Flags.string({
      description: "condition 'property OPERATOR value' on --type nodes (all must hold)",
      multiple: true,
    }),
    to: Flags.string({ description: 'destination node type (repeat for several)', multiple: true }),
    'to-where': Flags.string({ description: 'condition on --to nodes', multiple: true }),
    'no-relation': Flags.boolean({ description: 'list the nodes that reach no destination' }),
    permission: Flags.string({
      description: 'canonical permission type the relation must carry (repeat: any of them)',
      multiple: true,
    }),
    'all-permissions': Flags.boolean({ description: 'with several --permission: all of them, not any' }),
    destinations: Flags.boolean({
      description: 'list the --to nodes that the --type nodes reach (DESTINATION_NODES)',
    }),
    'page-size': Flags.integer({
      description: 'results per request (1 to 100)',
      min: 1,
      max: 100,
      default: 100,
    }),
    limit: Flags.integer({ description: 'stop after this many nodes', min: 1 }),
  };

  async run(): Promise<{ values: NodeQueryValue[] }> {
    const { flags } = await this.parse(QueryNodes);
    const request = nodeQueryOf(flags);
    const { client } = await this.connect(flags);
    const values: NodeQueryValue[] = [];
    for await (const v of client.graph.queryNodes(request, {
      pageSize: flags['page-size'],
      signal: this.signal,
    })) {
      values.push(v);
      if (flags.limit !== undefined && values.length >= flags.limit) break;
    }
    const related = request.destination_node_types !== undefined && !request.no_relation;
    this.log(
      values.length === 0
        ? 'No nodes match.'
        : renderTable(
            [
              { header: 'ID', get: (v: NodeQueryValue) => v.id },
              { header: 'TYPE', get: (v) => v.type },
              {
                header: 'NAME',
                get: (v) => (typeof v.properties.name === 'string' ? v.properties.name : ''),
              },
              ...(related
                ? [
                    { header: 'COUNT', get: (v: NodeQueryValue) => v.destination_node_count, right: true },
                    { header: 'PERMISSIONS', get: (v: NodeQueryValue) => (v.permissions ?? []).join(',') },
                  ]
                : []),
            ],
            values,
          ),
    );
    return { values };
  }
}
