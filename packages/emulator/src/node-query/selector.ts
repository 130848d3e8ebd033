/**
 * A node selector of a node query (`source_node_types` or `destination_node_types`): node types, each
 * optionally narrowed to one node id and to nodes satisfying every one of its condition specs. The
 * entries of a selector are alternatives: a node matches when any entry of its type matches it.
 */
import type { ConditionSpec, NodeQueryRequest } from '@oaakit/core';
import type { AccessNode } from '../access/graph-reads.js';
import { holds } from './conditions.js';

type SelectorInput = NonNullable<NodeQueryRequest['source_node_types']>;

interface Entry {
  nodeId: string | undefined;
  specs: ConditionSpec[];
}

/** A selector ready to match nodes and to list the types to scan. */
export class NodeSelector {
  /** Distinct node types, in the order the request names them. */
  readonly types: string[] = [];
  private readonly byType = new Map<string, Entry[]>();

  constructor(input: SelectorInput) {
    for (const n of input.nodes) {
      let entries = this.byType.get(n.node_type);
      if (!entries) {
        this.byType.set(n.node_type, (entries = []));
        this.types.push(n.node_type);
      }
      entries.push({ nodeId: n.node_id ?? undefined, specs: n.condition_expression?.specs ?? [] });
    }
  }

  /** The node ids that bound `type`, when every entry of it names one (else the whole type is scanned). */
  idsOf(type: string): string[] | undefined {
    const entries = this.byType.get(type) ?? [];
    if (entries.some((e) => e.nodeId === undefined)) return undefined;
    return entries.map((e) => e.nodeId!);
  }

  /** Whether `node` matches an entry of its type. */
  matches(node: AccessNode): boolean {
    const entries = this.byType.get(node.type);
    if (!entries) return false;
    return entries.some(
      (e) => (e.nodeId === undefined || e.nodeId === node.id) && e.specs.every((s) => holds(node, s)),
    );
  }
}
