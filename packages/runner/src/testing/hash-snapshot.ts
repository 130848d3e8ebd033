/** Writes the entity-hash snapshot of a payload, as a run does while it pushes, for state tests. */
import { hashAsRead, jsonChunks } from '@oaakit/core';
import type { JsonObject, Template } from '@oaakit/core';
import { EntityHashWriter } from '../state/entity-hash-writer.js';
import type { SnapshotWriter } from '../state/state-store.js';

/**
 * Writes the snapshot of `payload` (one hash per entity) into `snapshot` and finishes it; commit
 * it with the state as a run would.
 *
 * @example
 * const snapshot = await store.openSnapshot('hr', digest);
 * await writeHashSnapshot(snapshot, 'hris', payload);
 * await store.commit('hr', { state, snapshot });
 */
export async function writeHashSnapshot(
  snapshot: SnapshotWriter,
  template: Template,
  payload: JsonObject,
): Promise<void> {
  const writer = new EntityHashWriter(snapshot, template);
  const hashed = hashAsRead(template, payload, (e) => writer.add(e));
  for await (const chunk of jsonChunks(hashed.value)) void chunk;
  await writer.finish(hashed.header);
}
