/**
 * Tags of graph nodes, keyed by the stable node id (so a new push of the same entity keeps them).
 * A push adds its payload's tags and never removes any; tags applied here stay until removed here.
 */
import type { Tag } from '@oaakit/core';
import type { Db } from '../db/schema.js';

/** The node with stable id `nodeId` and the provider of its data source, if the node exists. */
export function findTaggableNode(
  db: Db,
  nodeId: string,
): { id: string; name: string | null; provider_id: string | null } | undefined {
  return db
    .prepare<[string], { id: string; name: string | null; provider_id: string | null }>(
      `SELECT n.id, n.name, d.provider_id FROM nodes n LEFT JOIN data_sources d ON d.id = n.data_source_id
       WHERE n.id = ?`,
    )
    .get(nodeId);
}

/** Most tags one node may hold through the API (a push may add more). */
export const MAX_TAGS_PER_NODE = 1000;

/** How many tags a node holds. */
export function tagCount(db: Db, nodeId: string): number {
  return (
    db.prepare<[string], number>('SELECT count(*) FROM node_tags WHERE node_id = ?').pluck().get(nodeId) ?? 0
  );
}

/**
 * Applies `tags` to a node. A key given again takes the new value: the node keeps one value per key
 * applied through the API (a payload may still have added others, which stay).
 */
export function addTags(db: Db, nodeId: string, tags: readonly Tag[]): void {
  const drop = db.prepare('DELETE FROM node_tags WHERE node_id = ? AND key = ?');
  const insert = db.prepare('INSERT OR IGNORE INTO node_tags (node_id, key, value) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const t of tags) drop.run(nodeId, t.key);
    for (const t of tags) insert.run(nodeId, t.key, t.value ?? '');
  })();
}

/** Removes every value of tag `key` from a node; returns how many were removed. */
export function removeTag(db: Db, nodeId: string, key: string): number {
  return db.prepare('DELETE FROM node_tags WHERE node_id = ? AND key = ?').run(nodeId, key).changes;
}

/** The tags of a node, by key then value. */
export function tagsOf(db: Db, nodeId: string): { key: string; value: string }[] {
  return db
    .prepare<[string], { key: string; value: string }>(
      'SELECT key, value FROM node_tags WHERE node_id = ? ORDER BY key, value',
    )
    .all(nodeId);
}
