/**
 * Stable node ids: a hash of provider, data source, entity kind and the entity's case-folded key, so
 * the same entity keeps its id (and its tags) across pushes.
 */
import { hash } from 'node:crypto';

/** A UUID-shaped id derived from the entity's identity within its data source. */
export function nodeId(scope: string, kind: string, key: string): string {
  const h = hash('sha256', `${scope}\u0000${kind}\u0000${key}`, 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
