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
  /** Lower-cased string values that must appear in the node's raw properties or name (see `mayMatch`). */
  needles: string[];
}

const TEXT_FNS = new Set(['EQ', 'CONTAINS', 'STARTS_WITH', 'ENDS_WITH']);
/** Characters JSON text escapes: a value holding none appears verbatim in the JSON of a string holding it. */
const ESCAPED = { test: (v: string): boolean => [...v].some((c) => c < ' ' || c === '"' || c === '\\') };

function needlesOf(specs: readonly ConditionSpec[]): string[] {
  return specs
    .filter(
      (s) =>
        TEXT_FNS.has(s.fn) &&
        typeof s.value === 'string' &&
        s.value !== '' &&
        !ESCAPED.test(s.value) &&
        s.property !== 'id' &&
        s.property !== 'type',
    )
    .map((s) => (s.value as string).toLowerCase());
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
      const specs = n.condition_expression?.specs ?? [];
      entries.push({ nodeId: n.node_id ?? undefined, specs, needles: needlesOf(specs) });
    }
  }

  /** The node ids that bound `type`, when every entry of it names one (else the whole type is scanned). */
  idsOf(type: string): string[] | undefined {
    const entries = this.byType.get(type) ?? [];
    if (entries.some((e) => e.nodeId === undefined)) return undefined;
    return entries.map((e) => e.nodeId!);
  }

  /**
   * False when no entry of `type` can match a node with these raw properties and name: a cheap test
   * before the properties are parsed (a string an `EQ`, `CONTAINS`, `STARTS_WITH` or `ENDS_WITH` spec
   * looks for must appear in them). True means "parse and check".
   */
  mayMatch(type: string, rawProperties: string, name: string | null): boolean {
    const entries = this.byType.get(type);
    if (!entries) return false;
    if (entries.every((e) => e.needles.length === 0)) return true;
    const hay = `${rawProperties}\u0000${name ?? ''}`.toLowerCase();
    return entries.some((e) => e.needles.every((needle) => hay.includes(needle)));
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
