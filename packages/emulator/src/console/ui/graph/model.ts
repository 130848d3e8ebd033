/**
 * The explorer's graph in arrays (10,000 nodes and their edges without an object per edge), and the
 * column each node type is drawn in. What an identity reaches comes from the emulator
 * (access-reach.ts), never from a walk of this graph.
 */

/** What `/console/api/graph` answers. */
export interface GraphPayload {
  nodes: [id: string, type: string, name: string][];
  edges: [src: number, dst: number, kind: string, scope: number][];
}

/** Columns, left to right. */
export const LAYERS = ['Users', 'Groups', 'Roles', 'Permissions', 'Resources', 'Other'] as const;

/** The column of a node type (`OAA.<app>.User`, `...Group`, `...Role`, `...Permission`, `...Resource`). */
export function layerOf(type: string): number {
  if (/(User|Employee|AccessCred|Identity)$/i.test(type)) return 0;
  if (/Group$/i.test(type)) return 1;
  if (/Role$/i.test(type)) return 2;
  if (/Permission$/i.test(type)) return 3;
  if (/(Resource|SubResource|Application|App|System|Domain)$/i.test(type)) return 4;
  return 5;
}

/** The graph as arrays, with outgoing adjacency for the access walk. */
export interface Graph {
  size: number;
  ids: string[];
  types: string[];
  names: string[];
  lowerNames: string[];
  layer: Uint8Array;
  /** Every edge to draw: source, destination and kind index. */
  src: Int32Array;
  dst: Int32Array;
  kind: Uint16Array;
  kinds: string[];
}

/** Builds the arrays from the answer of `/console/api/graph`. */
export function buildGraph(payload: GraphPayload): Graph {
  const size = payload.nodes.length;
  const kinds: string[] = [];
  const kindIndex = new Map<string, number>();
  const k = (name: string): number => {
    let i = kindIndex.get(name);
    if (i === undefined) kindIndex.set(name, (i = kinds.push(name) - 1));
    return i;
  };
  const edges = payload.edges;
  const src = new Int32Array(edges.length);
  const dst = new Int32Array(edges.length);
  const kind = new Uint16Array(edges.length);
  edges.forEach(([s, d, name], i) => {
    src[i] = s;
    dst[i] = d;
    kind[i] = k(name);
  });
  return {
    size,
    ids: payload.nodes.map((n) => n[0]),
    types: payload.nodes.map((n) => n[1]),
    names: payload.nodes.map((n) => n[2]),
    lowerNames: payload.nodes.map((n) => n[2].toLowerCase()),
    layer: Uint8Array.from(payload.nodes, (n) => layerOf(n[1])),
    src,
    dst,
    kind,
    kinds,
  };
}
