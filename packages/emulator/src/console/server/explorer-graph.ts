/**
 * A data source's whole graph in the compact form the console's graph explorer draws: node rows by
 * index and edges as index pairs, so 10,000 nodes travel as a few hundred kilobytes. Read with the
 * graph store's own readers (graph/read-graph.ts), the same ones `/_emulator/graph/...` serves.
 */
import type { Db } from '../../db/schema.js';
import { badField } from '../../errors.js';
import { graphStats, readEdges, readNodes } from '../../graph/read-graph.js';

/** Most nodes the explorer loads; a larger graph is refused with a 400 naming the limit. */
export const MAX_EXPLORER_NODES = 50_000;
/** Most edges the explorer loads (a larger graph is refused). */
export const MAX_EXPLORER_EDGES = 250_000;

/** The explorer's graph: `[id, type, name]` per node, `[src, dst, kind, scope]` per edge (indexes). */
export interface ExplorerGraph {
  nodes: [id: string, type: string, name: string][];
  edges: [src: number, dst: number, kind: string, scope: number][];
}

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** The graph of data source `dataSourceId` (empty before its first push). */
export function explorerGraph(db: Db, dataSourceId: string): ExplorerGraph {
  const stats = graphStats(db, dataSourceId);
  const nodeCount = total(stats.nodes);
  if (nodeCount > MAX_EXPLORER_NODES)
    throw badField(
      'data_source_id',
      `the graph has ${nodeCount} nodes; the explorer draws at most ${MAX_EXPLORER_NODES}`,
    );
  if (total(stats.edges) > MAX_EXPLORER_EDGES)
    throw badField(
      'data_source_id',
      `the graph has more than ${MAX_EXPLORER_EDGES} edges; the explorer draws at most that`,
    );
  const views = readNodes(db, dataSourceId, { limit: MAX_EXPLORER_NODES, offset: 0 });
  const index = new Map<string, number>();
  const nodes: ExplorerGraph['nodes'] = views.map((n, i) => {
    index.set(n.id, i);
    return [n.id, n.type, n.name ?? n.id];
  });
  const edges: ExplorerGraph['edges'] = [];
  for (const e of readEdges(db, dataSourceId, { limit: MAX_EXPLORER_EDGES, offset: 0 })) {
    const src = e.src === null ? undefined : index.get(e.src);
    const dst = e.dst === null ? undefined : index.get(e.dst);
    // An endpoint outside this graph (an identity-provider identity, a cloud role) is not drawn.
    if (src === undefined || dst === undefined) continue;
    edges.push([src, dst, e.kind, e.scope === null ? -1 : (index.get(e.scope) ?? -1)]);
  }
  return { nodes, edges };
}
