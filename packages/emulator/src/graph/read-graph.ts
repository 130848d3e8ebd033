/**
 * Read access to a data source's graph, for the `/_emulator/graph` debug endpoints and tests (the
 * node query API comes later). Containment (a node's parent) is reported as `CONTAINS` edges.
 */
import type { Db } from '../db/schema.js';
import { rangesOf } from './delete-graph.js';

/** A node with its stable id, properties and tags. */
export interface GraphNodeView {
  id: string;
  type: string;
  name: string | null;
  parent_id: string | null;
  properties: Record<string, unknown>;
  tags: { key: string; value: string }[];
}

/** An edge by stable node ids; an endpoint outside the graph is null and named by `ref`. */
export interface GraphEdgeView {
  kind: string;
  src: string | null;
  dst: string | null;
  /** The application or resource a role or permission applies on. */
  scope: string | null;
  ref: string | null;
  properties: Record<string, unknown> | null;
}

/** Counts of a data source's graph. */
export interface GraphStats {
  nodes: Record<string, number>;
  edges: Record<string, number>;
  /** Local identities that match an identity-provider user or group (in any data source). */
  identity_links: number;
}

export interface ReadOptions {
  limit: number;
  offset: number;
  /** Node type (nodes) or edge kind (edges) to keep. */
  only?: string | undefined;
}

const EMPTY = { node_lo: 1, node_hi: 0, edge_lo: 1, edge_hi: 0, key_lo: 1, key_hi: 0 };

/** Node and edge counts of the data source's current submission (all zero without one). */
export function graphStats(db: Db, dataSourceId: string): GraphStats {
  const r = rangesOf(db, dataSourceId) ?? EMPTY;
  const nodes: Record<string, number> = {};
  for (const row of db
    .prepare<[number, number], { type: string; n: number }>(
      'SELECT type, count(*) AS n FROM nodes WHERE rid BETWEEN ? AND ? GROUP BY type',
    )
    .all(r.node_lo, r.node_hi)) {
    nodes[row.type] = row.n;
  }
  const edges: Record<string, number> = {};
  for (const row of db
    .prepare<[number, number], { kind: string; n: number }>(
      'SELECT kind, count(*) AS n FROM edges WHERE rid BETWEEN ? AND ? GROUP BY kind',
    )
    .all(r.edge_lo, r.edge_hi)) {
    edges[row.kind] = row.n;
  }
  const contains =
    db
      .prepare<[number, number], number>(
        'SELECT count(*) FROM nodes WHERE rid BETWEEN ? AND ? AND parent IS NOT NULL',
      )
      .pluck()
      .get(r.node_lo, r.node_hi) ?? 0;
  if (contains > 0) edges.CONTAINS = contains;
  const links =
    db
      .prepare<[number, number], number>(
        "SELECT count(*) FROM edges e JOIN identity_keys k ON k.key = e.ref WHERE e.kind = 'HAS_IDENTITY' AND e.rid BETWEEN ? AND ?",
      )
      .pluck()
      .get(r.edge_lo, r.edge_hi) ?? 0;
  return { nodes, edges, identity_links: links };
}

/** A page of the data source's nodes, in insertion order. */
export function readNodes(db: Db, dataSourceId: string, options: ReadOptions): GraphNodeView[] {
  const r = rangesOf(db, dataSourceId) ?? EMPTY;
  const rows = db
    .prepare<
      unknown[],
      { id: string; type: string; name: string | null; parent_id: string | null; properties: string }
    >(
      `SELECT n.id, n.type, n.name, p.id AS parent_id, n.properties FROM nodes n LEFT JOIN nodes p ON p.rid = n.parent
       WHERE n.rid BETWEEN ? AND ? ${options.only === undefined ? '' : 'AND n.type = ?'} ORDER BY n.rid LIMIT ? OFFSET ?`,
    )
    .all(
      r.node_lo,
      r.node_hi,
      ...(options.only === undefined ? [] : [options.only]),
      options.limit,
      options.offset,
    );
  const tags = db.prepare<[string], { key: string; value: string }>(
    'SELECT key, value FROM node_tags WHERE node_id = ? ORDER BY key, value',
  );
  return rows.map((row) => ({
    ...row,
    properties: JSON.parse(row.properties) as Record<string, unknown>,
    tags: tags.all(row.id),
  }));
}

/** A page of the data source's edges (containment last), in insertion order. */
export function readEdges(db: Db, dataSourceId: string, options: ReadOptions): GraphEdgeView[] {
  const r = rangesOf(db, dataSourceId) ?? EMPTY;
  const rows = db
    .prepare<unknown[], Omit<GraphEdgeView, 'properties'> & { props: string | null }>(
      `SELECT kind, src, dst, scope, ref, props FROM (
         SELECT 0 AS ord, e.rid AS r, e.kind, s.id AS src, d.id AS dst, sc.id AS scope, e.ref, e.props
           FROM edges e LEFT JOIN nodes s ON s.rid = e.src LEFT JOIN nodes d ON d.rid = e.dst LEFT JOIN nodes sc ON sc.rid = e.scope
          WHERE e.rid BETWEEN ? AND ?
         UNION ALL
         SELECT 1, n.rid, 'CONTAINS', p.id, n.id, NULL, NULL, NULL
           FROM nodes n JOIN nodes p ON p.rid = n.parent WHERE n.rid BETWEEN ? AND ?)
       ${options.only === undefined ? '' : 'WHERE kind = ?'} ORDER BY ord, r LIMIT ? OFFSET ?`,
    )
    .all(
      r.edge_lo,
      r.edge_hi,
      r.node_lo,
      r.node_hi,
      ...(options.only === undefined ? [] : [options.only]),
      options.limit,
      options.offset,
    );
  return rows.map(({ props, ...rest }) => ({
    ...rest,
    properties: props === null ? null : (JSON.parse(props) as Record<string, unknown>),
  }));
}
