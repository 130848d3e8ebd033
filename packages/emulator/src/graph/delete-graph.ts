/** Removes a data source's submitted graph: the row-id ranges its submission recorded. */
import type { PushDb } from '../db/push-db.js';
import type { Db } from '../db/schema.js';

/** Row-id ranges of one submission's graph rows (inclusive; `hi < lo` means none). */
export interface GraphRanges {
  node_lo: number;
  node_hi: number;
  edge_lo: number;
  edge_hi: number;
  key_lo: number;
  key_hi: number;
}

/** The recorded ranges of a data source's submission, if it has one. */
export function rangesOf(db: PushDb, dataSourceId: string): GraphRanges | undefined {
  return db
    .prepare<GraphRanges>(
      'SELECT node_lo, node_hi, edge_lo, edge_hi, key_lo, key_hi FROM submissions WHERE data_source_id = ?',
    )
    .get(dataSourceId);
}

/** Deletes the graph rows in `ranges`; tags are kept unless `keepTags` is false. */
export function deleteRanges(db: PushDb, ranges: GraphRanges, options: { keepTags: boolean }): void {
  if (!options.keepTags) {
    db.prepare('DELETE FROM node_tags WHERE node_id IN (SELECT id FROM nodes WHERE rid BETWEEN ? AND ?)').run(
      ranges.node_lo,
      ranges.node_hi,
    );
  }
  db.prepare('DELETE FROM nodes WHERE rid BETWEEN ? AND ?').run(ranges.node_lo, ranges.node_hi);
  db.prepare('DELETE FROM edges WHERE rid BETWEEN ? AND ?').run(ranges.edge_lo, ranges.edge_hi);
  db.prepare('DELETE FROM identity_keys WHERE rid BETWEEN ? AND ?').run(ranges.key_lo, ranges.key_hi);
}

/** Deletes the graph and the submission of a data source (no-op without a submission). */
export function deleteGraphOf(db: Db, dataSourceId: string, options: { keepTags: boolean }): void {
  const ranges = rangesOf(db, dataSourceId);
  if (!ranges) return;
  deleteRanges(db, ranges, options);
  db.prepare('DELETE FROM submissions WHERE data_source_id = ?').run(dataSourceId);
  db.prepare('DELETE FROM submission_parts WHERE data_source_id = ?').run(dataSourceId);
}
