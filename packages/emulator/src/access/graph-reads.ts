/**
 * The reads effective access needs from the graph store, with per-computation caches. One instance
 * serves one request: the graph may change between requests (a push), never within one (better-sqlite3
 * runs a request's reads without interleaving a write).
 */
import type { Statement } from 'better-sqlite3';
import { ensureQueryIndexes } from '../db/graph-indexes.js';
import type { Db } from '../db/schema.js';
import { kindOf, type NodeKind } from './node-kind.js';

/** A node as effective access reads it. */
export interface AccessNode {
  rid: number;
  id: string;
  type: string;
  name: string | null;
  kind: NodeKind;
  readonly properties: Record<string, unknown>;
}

/** An edge row: endpoints are node row ids; an endpoint outside the graph is null, named by `ref`. */
export interface EdgeRow {
  src: number | null;
  dst: number | null;
  kind: string;
  scope: number | null;
  ref: string | null;
  props: Record<string, unknown> | null;
}

interface RawNode {
  rid: number;
  id: string;
  type: string;
  name: string | null;
  properties: string;
}

interface RawEdge extends Omit<EdgeRow, 'props'> {
  props: string | null;
}

const EDGE_COLUMNS = 'src, dst, kind, scope, ref, props';

function toEdge(r: RawEdge): EdgeRow {
  return { ...r, props: r.props === null ? null : (JSON.parse(r.props) as Record<string, unknown>) };
}

/** Node and edge lookups by row id, endpoint, scope and reference. */
export class GraphReads {
  private readonly byRid: Statement<[number], RawNode>;
  private readonly byId: Statement<[string], RawNode>;
  private readonly outStmt: Statement<[number, string], RawEdge>;
  private readonly inStmt: Statement<[number, string], RawEdge>;
  private readonly outNodesStmt: Statement<[number, string], RawNode>;
  private readonly inNodesStmt: Statement<[number, string], RawNode>;
  private readonly scopeStmt: Statement<[number], RawEdge>;
  private readonly refStmt: Statement<[string], RawEdge>;
  private readonly keysStmt: Statement<[number], string>;
  private readonly keyNodesStmt: Statement<[string], number>;
  private readonly nodes = new Map<number, AccessNode | undefined>();
  private readonly keys = new Map<number, string[]>();
  private anyKeys: boolean | undefined;

  constructor(readonly db: Db) {
    // A bulk ingest leaves these reads' indexes to the first query (db/graph-indexes.ts).
    ensureQueryIndexes(db);
    const nodeSql = 'SELECT rid, id, type, name, properties FROM nodes';
    this.byRid = db.prepare(`${nodeSql} WHERE rid = ?`);
    this.byId = db.prepare(`${nodeSql} WHERE id = ?`);
    this.outStmt = db.prepare(`SELECT ${EDGE_COLUMNS} FROM edges WHERE src = ? AND kind = ?`);
    this.inStmt = db.prepare(`SELECT ${EDGE_COLUMNS} FROM edges WHERE dst = ? AND kind = ?`);
    const joined = 'n.rid, n.id, n.type, n.name, n.properties FROM edges e JOIN nodes n ON n.rid';
    this.outNodesStmt = db.prepare(`SELECT ${joined} = e.dst WHERE e.src = ? AND e.kind = ?`);
    this.inNodesStmt = db.prepare(`SELECT ${joined} = e.src WHERE e.dst = ? AND e.kind = ?`);
    this.scopeStmt = db.prepare(
      `SELECT ${EDGE_COLUMNS} FROM edges WHERE scope = ? AND kind IN ('HAS_PERMISSION', 'HAS_ROLE')`,
    );
    this.refStmt = db.prepare(`SELECT ${EDGE_COLUMNS} FROM edges WHERE ref = ?`);
    this.keysStmt = db.prepare<[number], string>('SELECT key FROM identity_keys WHERE node = ?').pluck();
    this.keyNodesStmt = db.prepare<[string], number>('SELECT node FROM identity_keys WHERE key = ?').pluck();
  }

  /** Wraps a raw row (as node queries scan them) and caches it. */
  adopt(raw: RawNode): AccessNode {
    const cached = this.nodes.get(raw.rid);
    if (cached) return cached;
    let parsed: Record<string, unknown> | undefined;
    const node: AccessNode = {
      rid: raw.rid,
      id: raw.id,
      type: raw.type,
      name: raw.name,
      kind: kindOf(raw.type),
      // Parsed when first read: a walk through many members mostly needs only their type.
      get properties() {
        return (parsed ??= JSON.parse(raw.properties) as Record<string, unknown>);
      },
    };
    this.nodes.set(raw.rid, node);
    return node;
  }

  node(rid: number): AccessNode | undefined {
    if (this.nodes.has(rid)) return this.nodes.get(rid);
    const raw = this.byRid.get(rid);
    if (raw === undefined) {
      this.nodes.set(rid, undefined);
      return undefined;
    }
    return this.adopt(raw);
  }

  /** The node with stable id `id`. */
  nodeById(id: string): AccessNode | undefined {
    const raw = this.byId.get(id);
    return raw === undefined ? undefined : this.adopt(raw);
  }

  /** Edges of `kind` leaving `rid`. */
  out(rid: number, kind: string): EdgeRow[] {
    return this.outStmt.all(rid, kind).map(toEdge);
  }

  /** Edges of `kind` arriving at `rid`. */
  in(rid: number, kind: string): EdgeRow[] {
    return this.inStmt.all(rid, kind).map(toEdge);
  }

  /** The nodes edges of `kind` from `rid` lead to (one statement: a walk reads many). */
  outNodes(rid: number, kind: string): AccessNode[] {
    return this.outNodesStmt.all(rid, kind).map((r) => this.adopt(r));
  }

  /** The nodes edges of `kind` to `rid` come from. */
  inNodes(rid: number, kind: string): AccessNode[] {
    return this.inNodesStmt.all(rid, kind).map((r) => this.adopt(r));
  }

  /** Permission and role grants that apply on `rid`. */
  grantsOn(rid: number): EdgeRow[] {
    return this.scopeStmt.all(rid).map(toEdge);
  }

  /** Edges whose outside endpoint is named `ref`. */
  byRef(ref: string): EdgeRow[] {
    return this.refStmt.all(ref).map(toEdge);
  }

  /** The lower-cased names, emails and identities an identity-provider node is matched by. */
  identityKeys(rid: number): string[] {
    let k = this.keys.get(rid);
    if (k === undefined) {
      k = [...new Set(this.keysStmt.all(rid))];
      this.keys.set(rid, k);
    }
    return k;
  }

  /** Whether any identity-provider user or group exists (else identity links need no lookups). */
  hasIdentityProviders(): boolean {
    this.anyKeys ??= this.db.prepare('SELECT 1 FROM identity_keys LIMIT 1').get() !== undefined;
    return this.anyKeys;
  }

  /** Identity-provider nodes matched by `key` (lower-cased). */
  nodesByKey(key: string): AccessNode[] {
    const out: AccessNode[] = [];
    for (const rid of this.keyNodesStmt.all(key)) {
      const n = this.node(rid);
      if (n) out.push(n);
    }
    return out;
  }
}
