/**
 * Writes one submission's graph rows with prepared statements and consecutive row ids, inside the
 * caller's transaction. Row ids are assigned here, so the rows of a submission form ranges.
 */
import type { PushDb, PushStatement } from '../db/push-db.js';
import type { GraphRanges } from './delete-graph.js';
import { nodeId } from './node-id.js';

/** Edge kinds of the graph model. */
export type EdgeKind =
  | 'MEMBER_OF'
  | 'HAS_ROLE'
  | 'ROLE_HAS_PERMISSION'
  | 'ROLE_HAS_ROLE'
  | 'HAS_ACCESS_CRED'
  | 'HAS_PERMISSION'
  | 'HAS_IDENTITY'
  | 'MANAGED_BY'
  | 'OWNS'
  | 'ASSIGNED_TO'
  | 'CAN_ASSUME'
  | 'SOURCE_IDENTITY'
  | 'CONNECTED_TO'
  | 'DEPARTMENT'
  | 'COST_CENTER';

export interface EdgeOptions {
  /** Node the grant applies on (an application or resource), for roles and permissions. */
  scope?: number;
  /** Reference text of an endpoint outside this graph. */
  ref?: string;
  props?: Record<string, unknown>;
}

/** A tag as payloads carry it. */
export interface PayloadTag {
  key: string;
  value?: string | null | undefined;
}

const EDGE_BATCH = 64;
/** Nodes are batched like edges: one statement per 64 rows. */
const NODE_BATCH = 64;
/** Parameters of one node row. */
const NODE_PARAMS = 6;

/** `text` as an SQL string literal. */
function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function maxRid(db: PushDb, table: string): number {
  return db.prepare<{ m: number | null }>(`SELECT max(rid) AS m FROM ${table}`).get()?.m ?? 0;
}

export class GraphWriter {
  private readonly insertNode: PushStatement;
  private readonly insertNodes: PushStatement;
  /** Parameters of nodes not yet written (row ids are assigned here, so nothing reads them first). */
  private nodeBatch: unknown[] = [];
  private readonly insertEdge: PushStatement;
  private readonly insertEdges: PushStatement;
  /** Parameters of edges not yet written: edges go in batches, which costs a third less. */
  private edgeBatch: unknown[] = [];
  private readonly insertKey: PushStatement;
  private readonly insertTag: PushStatement;
  private readonly scope: string;
  private readonly nodeLo: number;
  private readonly edgeLo: number;
  private readonly keyLo: number;
  private nextNode: number;
  private nextEdge: number;
  private nextKey: number;
  /** Count of nodes per type, for the push summary. */
  readonly typeCounts = new Map<string, number>();

  /** Whether `nodesDone` ran. */
  private nodesEnded = false;

  /**
   * `onNodesDone` runs once, when the caller says no more nodes come (`nodesDone`), after the nodes
   * are written: a bulk ingest builds the node-id index then, while the edges are still coming.
   */
  constructor(
    db: PushDb,
    dataSourceId: string,
    providerId: string,
    private readonly onNodesDone?: () => void,
  ) {
    this.scope = `${providerId}/${dataSourceId}`;
    // The data source id is the same in every row: a literal of the statement, not a parameter
    // (binding it costs about a tenth of a node insert).
    const nodeRow = `(?, ?, ${sqlText(dataSourceId)}, ?, ?, ?, ?)`;
    this.insertNode = db.prepare(
      `INSERT INTO nodes (rid, id, data_source_id, type, name, parent, properties) VALUES ${nodeRow}`,
    );
    this.insertNodes = db.prepare(
      `INSERT INTO nodes (rid, id, data_source_id, type, name, parent, properties) VALUES ${Array<string>(NODE_BATCH).fill(nodeRow).join(', ')}`,
    );
    this.insertEdge = db.prepare(
      'INSERT INTO edges (rid, src, dst, kind, scope, ref, props) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertEdges = db.prepare(
      `INSERT INTO edges (rid, src, dst, kind, scope, ref, props) VALUES ${Array<string>(EDGE_BATCH).fill('(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    );
    this.insertKey = db.prepare('INSERT INTO identity_keys (rid, node, key) VALUES (?, ?, ?)');
    this.insertTag = db.prepare('INSERT OR IGNORE INTO node_tags (node_id, key, value) VALUES (?, ?, ?)');
    this.nodeLo = this.nextNode = maxRid(db, 'nodes') + 1;
    this.edgeLo = this.nextEdge = maxRid(db, 'edges') + 1;
    this.keyLo = this.nextKey = maxRid(db, 'identity_keys') + 1;
  }

  /** Inserts a node; `kind` and `key` (case-folded by the caller) make its stable id. Returns its row id. */
  node(options: {
    kind: string;
    key: string;
    type: string;
    name: string;
    parent?: number | undefined;
    properties: Record<string, unknown>;
    tags?: readonly PayloadTag[] | null | undefined;
  }): number {
    const rid = this.nextNode++;
    const id = nodeId(this.scope, options.kind, options.key);
    this.nodeBatch.push(
      rid,
      id,
      options.type,
      options.name,
      options.parent ?? null,
      JSON.stringify(options.properties),
    );
    if (this.nodeBatch.length === NODE_BATCH * NODE_PARAMS) {
      this.insertNodes.run(this.nodeBatch);
      this.nodeBatch = [];
    }
    this.typeCounts.set(options.type, (this.typeCounts.get(options.type) ?? 0) + 1);
    if (options.tags) for (const t of options.tags) this.insertTag.run(id, t.key, t.value ?? '');
    return rid;
  }

  /** Inserts an edge; an endpoint outside this graph is undefined and named by `ref`. */
  edge(src: number | undefined, dst: number | undefined, kind: EdgeKind, options: EdgeOptions = {}): void {
    this.edgeBatch.push(
      this.nextEdge++,
      src ?? null,
      dst ?? null,
      kind,
      options.scope ?? null,
      options.ref ?? null,
      options.props === undefined ? null : JSON.stringify(options.props),
    );
    if (this.edgeBatch.length === EDGE_BATCH * 7) {
      this.insertEdges.run(this.edgeBatch);
      this.edgeBatch = [];
    }
  }

  /** Writes the nodes and edges still batched. Call once after the last edge. */
  flush(): void {
    for (let i = 0; i < this.nodeBatch.length; i += NODE_PARAMS)
      this.insertNode.run(this.nodeBatch.slice(i, i + NODE_PARAMS));
    this.nodeBatch = [];
    for (let i = 0; i < this.edgeBatch.length; i += 7) this.insertEdge.run(this.edgeBatch.slice(i, i + 7));
    this.edgeBatch = [];
  }

  /**
   * Says that no more nodes come (more may, at a cost: the index built meanwhile is kept up to
   * date): writes those batched and runs `onNodesDone`, once.
   */
  nodesDone(): void {
    if (this.nodesEnded) return;
    this.nodesEnded = true;
    for (let i = 0; i < this.nodeBatch.length; i += NODE_PARAMS)
      this.insertNode.run(this.nodeBatch.slice(i, i + NODE_PARAMS));
    this.nodeBatch = [];
    this.onNodesDone?.();
  }

  /** Records a name, email or identity an identity-provider entity can be matched by. */
  identityKey(node: number, key: string | null | undefined): void {
    if (key) this.insertKey.run(this.nextKey++, node, key.toLowerCase());
  }

  /** The row-id ranges written, after flushing batched edges. */
  ranges(): GraphRanges {
    this.flush();
    return {
      node_lo: this.nodeLo,
      node_hi: this.nextNode - 1,
      edge_lo: this.edgeLo,
      edge_hi: this.nextEdge - 1,
      key_lo: this.keyLo,
      key_hi: this.nextKey - 1,
    };
  }
}
