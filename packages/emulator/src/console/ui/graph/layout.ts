/**
 * A layered layout: one band per column of model.LAYERS (users, groups, roles, permissions,
 * resources), left to right, so access reads as flowing rightwards. A band with many nodes wraps
 * into sub-columns, keeping 10,000 nodes on a screen-shaped area. Linear in the node count.
 */
import { LAYERS, type Graph } from './model.js';

/** Vertical distance between rows, in graph units. */
export const ROW = 24;
/** Width of one sub-column. */
export const COLUMN = 170;
const BAND_GAP = 70;

/** Node positions (NaN for nodes not shown) and the bounds of what is shown. */
export interface Layout {
  x: Float32Array;
  y: Float32Array;
  shown: number[];
  width: number;
  height: number;
  /** Left edge and title of each non-empty band. */
  bands: { x: number; title: string }[];
}

/** Views with fewer nodes than this get rows spread apart, leaving room for edge labels. */
const SPREAD_BELOW = 80;
const SPREAD = 4;

/** Lays out `shown` (node indexes, in the order they should appear within their band). */
export function layout(g: Graph, shown: number[]): Layout {
  const small = shown.length < SPREAD_BELOW;
  const row = small ? ROW * SPREAD : ROW;
  const gap = small ? BAND_GAP * 1.5 : BAND_GAP;
  const x = new Float32Array(g.size).fill(Number.NaN);
  const y = new Float32Array(g.size).fill(Number.NaN);
  const byLayer: number[][] = LAYERS.map(() => []);
  for (const n of shown) byLayer[g.layer[n]!]!.push(n);
  const bands: Layout['bands'] = [];
  let left = 0;
  let height = 0;
  // One row count for every band, chosen so the whole drawing is about 4:3 like a screen.
  const rows = Math.max(40, Math.ceil(Math.sqrt((shown.length * COLUMN) / (row * 1.3))));
  byLayer.forEach((nodes, layer) => {
    if (nodes.length === 0) return;
    bands.push({ x: left, title: `${LAYERS[layer]!} (${nodes.length})` });
    nodes.forEach((n, i) => {
      x[n] = left + Math.floor(i / rows) * COLUMN;
      y[n] = (i % rows) * row;
    });
    const columns = Math.ceil(nodes.length / rows);
    height = Math.max(height, Math.min(rows, nodes.length) * row);
    left += columns * COLUMN + gap;
  });
  return { x, y, shown, width: Math.max(left - gap, COLUMN), height: Math.max(height, ROW), bands };
}
