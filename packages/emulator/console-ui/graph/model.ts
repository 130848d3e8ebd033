/**
 * The explorer's graph in arrays (10,000 nodes and their edges without an object per edge), the
 * column each node type is drawn in, and what an identity reaches: a breadth-first walk along
 * membership, role assignment, role nesting, permission grants and the resources a role or
 * permission applies on, remembering for each node the step it was reached by ("through what").
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

/** Edge kinds an identity's access flows along (from source to destination). */
const FOLLOW = new Set([
  'MEMBER_OF',
  'HAS_ROLE',
  'ROLE_HAS_ROLE',
  'ROLE_HAS_PERMISSION',
  'HAS_PERMISSION',
  'HAS_ACCESS_CRED',
  'ASSIGNED_TO',
]);

/** The step "a role or permission applies on this resource or application". */
export const APPLIES_ON = 'APPLIES_ON';
/** Its kind index: the first kind of every graph. */
const APPLIES_ON_KIND = 0;

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
  /** Outgoing access steps of node i: `stepDst[stepStart[i] .. stepStart[i+1])`. */
  stepStart: Int32Array;
  stepDst: Int32Array;
  stepKind: Uint16Array;
  /** The resource or application the step's role or permission applies on, or -1. */
  stepScope: Int32Array;
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
  const steps: [number, number, number, number][] = [];
  k(APPLIES_ON);
  edges.forEach(([s, d, name, scope], i) => {
    src[i] = s;
    dst[i] = d;
    kind[i] = k(name);
    if (FOLLOW.has(name)) steps.push([s, d, kind[i], scope === d ? -1 : scope]);
  });
  const stepStart = new Int32Array(size + 1);
  for (const [s] of steps) stepStart[s + 1]!++;
  for (let i = 0; i < size; i++) stepStart[i + 1]! += stepStart[i]!;
  const fill = stepStart.slice(0, size);
  const stepDst = new Int32Array(steps.length);
  const stepKind = new Uint16Array(steps.length);
  const stepScope = new Int32Array(steps.length);
  for (const [s, d, kd, scope] of steps) {
    const at = fill[s]!++;
    stepDst[at] = d;
    stepKind[at] = kd;
    stepScope[at] = scope;
  }
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
    stepStart,
    stepDst,
    stepKind,
    stepScope,
  };
}

/** What one identity reaches: for each reached node, the node and step it was first reached by. */
export interface Reach {
  root: number;
  /** Reached nodes in the order of the walk, the root first. */
  order: number[];
  /** `via[n]`: the node n was reached from (-1 for the root and unreached nodes). */
  via: Int32Array;
  /** `viaKind[n]`: the kind index of that step. */
  viaKind: Uint16Array;
  reached: Uint8Array;
}

/**
 * The breadth-first walk from `root`. A role or permission granted on a resource reaches that
 * resource through this grant only: the scope belongs to the step, not to the role, so a role
 * others hold on other resources does not lend them to this identity.
 */
export function reachOf(g: Graph, root: number): Reach {
  const via = new Int32Array(g.size).fill(-1);
  const viaKind = new Uint16Array(g.size);
  const reached = new Uint8Array(g.size);
  const order = [root];
  reached[root] = 1;
  for (let head = 0; head < order.length; head++) {
    const n = order[head]!;
    for (let at = g.stepStart[n]!; at < g.stepStart[n + 1]!; at++) {
      const d = g.stepDst[at]!;
      if (!reached[d]) {
        reached[d] = 1;
        via[d] = n;
        viaKind[d] = g.stepKind[at]!;
        order.push(d);
      }
      const scope = g.stepScope[at]!;
      if (scope >= 0 && !reached[scope]) {
        reached[scope] = 1;
        via[scope] = d;
        viaKind[scope] = APPLIES_ON_KIND;
        order.push(scope);
      }
    }
  }
  return { root, order, via, viaKind, reached };
}

/** The path from the root to `node` as `[node, kind of the step into it]`, root first. */
export function pathTo(g: Graph, reach: Reach, node: number): [number, string | null][] {
  const path: [number, string | null][] = [];
  for (let n = node; n !== -1; n = reach.via[n]!) {
    path.push([n, reach.via[n] === -1 ? null : g.kinds[reach.viaKind[n]!]!]);
    if (n === reach.root) break;
  }
  return path.reverse();
}
