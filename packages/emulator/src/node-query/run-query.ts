/**
 * Runs a node query over the graph of every data source. The primary side (the sources for
 * `SOURCE_TO_DESTINATION`, the destinations for `DESTINATION_NODES`) is scanned type by type in row
 * order; each candidate matching its selector is related to the other side through effective access
 * (`access/`). A page ends when it is full, or when the time budget is spent: then it may hold fewer
 * values (even none) with `has_more` true, as the spec's pagination allows.
 */
import type { CanonicalPermissionsFilter, NodeQueryRequest, PermissionType } from '@oaakit/core';
import { ensureQueryIndexes } from '../db/graph-indexes.js';
import type { Db } from '../db/schema.js';
import { badField } from '../errors.js';
import { EffectiveAccessReader, canonicalOrder } from '../access/effective-access.js';
import { GraphReads, type AccessNode } from '../access/graph-reads.js';
import { ReverseAccessReader } from '../access/reverse.js';
import { PageTokens, queryFingerprint } from '../query/page-token.js';
import { tagsOf } from '../store/tags.js';
import { NodeSelector } from './selector.js';

/** One value of a node query result. */
export interface NodeQueryValue {
  id: string;
  type: string;
  properties: Record<string, unknown>;
  destination_node_count: number;
  permissions: PermissionType[];
}

/** A page of a node query result. */
export interface NodeQueryPage {
  values: NodeQueryValue[];
  next_page_token: string;
  has_more: boolean;
}

export interface RunOptions {
  pageSize: number;
  /** `page_token` as received. */
  pageToken: unknown;
  /** Milliseconds one page may spend scanning before it is answered as it stands. */
  budgetMs: number;
}

const SCAN_BATCH = 256;

/** Where the scan of candidates stopped: the index of the node type, and the last row id read. */
interface ScanPosition {
  type: number;
  rid: number;
}

const scanTokens = new PageTokens(
  { type: 'count', rid: 'count' },
  'belongs to another query; send the same request body',
);

interface RawNode {
  rid: number;
  id: string;
  type: string;
  name: string | null;
  properties: string;
}

function qualifies(
  held: ReadonlySet<string>,
  filter: CanonicalPermissionsFilter | null | undefined,
): boolean {
  if (!filter) return true;
  return filter.operator === 'AND'
    ? filter.values.every((v) => held.has(v))
    : filter.values.some((v) => held.has(v));
}

/** Runs `request` and answers one page. */
export function runNodeQuery(db: Db, request: NodeQueryRequest, options: RunOptions): NodeQueryPage {
  // Before the page's time budget starts: the indexes a bulk ingest left to the first query.
  ensureQueryIndexes(db);
  const started = performance.now();
  const forward = (request.query_type ?? 'SOURCE_TO_DESTINATION') === 'SOURCE_TO_DESTINATION';
  const primaryField = forward ? 'source_node_types' : 'destination_node_types';
  const otherField = forward ? 'destination_node_types' : 'source_node_types';
  const primaryInput = forward ? request.source_node_types : request.destination_node_types;
  const otherInput = forward ? request.destination_node_types : request.source_node_types;
  if (!primaryInput?.nodes.length)
    throw badField(
      `${primaryField}.nodes`,
      `must name at least one node type for ${forward ? 'SOURCE_TO_DESTINATION' : 'DESTINATION_NODES'}`,
    );
  const other = otherInput?.nodes.length ? new NodeSelector(otherInput) : undefined;
  if (!other && (request.canonical_permissions || request.no_relation))
    throw badField(
      otherField,
      'must name at least one node type when canonical_permissions or no_relation is set',
    );
  const primary = new NodeSelector(primaryInput);
  const print = queryFingerprint(request);
  let at: ScanPosition = scanTokens.decode(options.pageToken, print) ?? { type: 0, rid: 0 };

  const g = new GraphReads(db);
  const fwd = new EffectiveAccessReader(g);
  const rev = new ReverseAccessReader(g);
  const scan = db.prepare<[string, number, number], RawNode>(
    'SELECT rid, id, type, name, properties FROM nodes WHERE type = ? AND rid > ? ORDER BY rid LIMIT ?',
  );
  const byIds = (ids: string[]): RawNode[] =>
    db
      .prepare<string[], RawNode>(
        `SELECT rid, id, type, name, properties FROM nodes WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY rid`,
      )
      .all(...ids);

  const relate = (node: AccessNode): { count: number; permissions: PermissionType[] } => {
    if (!other) return { count: 0, permissions: [] };
    let count = 0;
    const union = new Set<string>();
    const consider = (n: AccessNode, held: Iterable<string>): void => {
      const set = held instanceof Set ? (held as Set<string>) : new Set(held);
      if (!other.matches(n) || !qualifies(set, request.canonical_permissions)) return;
      count++;
      for (const t of set) union.add(t);
    };
    if (forward) for (const r of fwd.of(node, otherField).reached.values()) consider(r.node, r.permissions);
    else for (const r of rev.of(node, otherField).values()) consider(r.node, r.permissions);
    return { count, permissions: canonicalOrder(union) };
  };

  const values: NodeQueryValue[] = [];
  const answer = (node: AccessNode, count: number, permissions: PermissionType[]): void => {
    const properties =
      request.include_nodes === false ? {} : { ...node.properties, tags: tagsOf(db, node.id) };
    values.push({ id: node.id, type: node.type, properties, destination_node_count: count, permissions });
  };

  let visited = 0;
  while (at.type < primary.types.length) {
    const type = primary.types[at.type]!;
    const ids = primary.idsOf(type);
    const after = at.rid;
    const rows = ids
      ? byIds(ids).filter((r) => r.type === type && r.rid > after)
      : scan.all(type, after, SCAN_BATCH);
    for (const raw of rows) {
      if (values.length === options.pageSize) return done(values, print, at, true);
      // Every page makes progress: the budget is checked only after the first candidate.
      if (visited > 0 && performance.now() - started > options.budgetMs) return done(values, print, at, true);
      visit(raw);
      visited++;
      at = { type: at.type, rid: raw.rid };
    }
    // A node-id entry is read in one go; a short batch is the end of the type.
    if (ids || rows.length < SCAN_BATCH) at = { type: at.type + 1, rid: 0 };
  }
  return done(values, print, at, false);

  function visit(raw: RawNode): void {
    if (!primary.mayMatch(raw.type, raw.properties, raw.name)) return;
    const node = g.adopt(raw);
    if (!primary.matches(node)) return;
    const rel = relate(node);
    if (!other) answer(node, 0, []);
    else if (request.no_relation) {
      if (rel.count === 0) answer(node, 0, []);
    } else if (rel.count > 0) answer(node, rel.count, rel.permissions);
  }
}

function done(values: NodeQueryValue[], print: string, at: ScanPosition, more: boolean): NodeQueryPage {
  return { values, next_page_token: more ? scanTokens.encode(at, print) : '', has_more: more };
}
