/** The node query that `oaa query nodes` flags describe. */
import { OaaError, PERMISSION_TYPES, type NodeQueryRequest, type PermissionType } from '@oaakit/core';
import { parseWhere } from './where.js';

/** The flags of `oaa query nodes`, parsed. */
export interface NodeQueryFlags {
  type: string[];
  where?: string[] | undefined;
  to?: string[] | undefined;
  'to-where'?: string[] | undefined;
  'no-relation'?: boolean | undefined;
  permission?: string[] | undefined;
  'all-permissions'?: boolean | undefined;
  destinations?: boolean | undefined;
}

function permissionsOf(names: readonly string[]): PermissionType[] {
  return names.map((name) => {
    const found = PERMISSION_TYPES.find((t) => t.toLowerCase() === name.toLowerCase());
    if (!found)
      throw new OaaError(`--permission ${JSON.stringify(name)} is not a canonical permission type`, {
        code: 'USAGE',
        hints: [`one of: ${PERMISSION_TYPES.join(', ')}`],
      });
    return found;
  });
}

/**
 * The request: `--type` (with `--where`) selects the sources, `--to` (with `--to-where`) the
 * destinations; `--destinations` lists the destinations instead (DESTINATION_NODES).
 */
export function nodeQueryOf(flags: NodeQueryFlags): NodeQueryRequest {
  const specs = (flags.where ?? []).map(parseWhere);
  const toSpecs = (flags['to-where'] ?? []).map(parseWhere);
  const selector = (types: readonly string[], s: typeof specs) => ({
    nodes: types.map((node_type) => ({
      node_type,
      ...(s.length > 0 ? { condition_expression: { specs: s } } : {}),
    })),
  });
  const to = flags.to ?? [];
  if (to.length === 0 && (flags['no-relation'] || flags.permission?.length || flags.destinations))
    throw new OaaError('--no-relation, --permission and --destinations need --to', {
      code: 'USAGE',
      hints: ['example: --type OAA.wiki.User --to OAA.wiki.space.Resource --permission DataWrite'],
    });
  const request: NodeQueryRequest = {
    query_type: flags.destinations ? 'DESTINATION_NODES' : 'SOURCE_TO_DESTINATION',
    source_node_types: selector(flags.type, specs),
  };
  if (to.length > 0) request.destination_node_types = selector(to, toSpecs);
  if (flags['no-relation']) request.no_relation = true;
  if (flags.permission?.length)
    request.canonical_permissions = {
      values: permissionsOf(flags.permission),
      operator: flags['all-permissions'] ? 'AND' : 'OR',
    };
  return request;
}
