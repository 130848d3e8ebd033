/**
 * The diff against the last push, from entity hashes: each entity read by the pass is looked up in
 * the last push's hashes (by kind, scope and key) and taken out of them; what is left at the end
 * was removed. Holds the last push's hashes, never a payload.
 */
import { hasHeaderFields } from '@oaakit/core';
import type { EntityCounts, EntityHash, EntityKind, JsonObject, KindCounts, Template } from '@oaakit/core';
import type { PreviousHashes } from '../state/previous-hashes.js';
import type { DiffSummary } from './run-types.js';

/** Names of removed entities listed per kind in the result; the counts cover all of them. */
export const REMOVED_NAMES_LISTED = 100;

type Tally = { added: number; removed: number; changed: number };

/** Follows one pass; `summary()` once it has read everything. */
export class HashDiff {
  private readonly tallies = new Map<EntityKind, Tally>();

  constructor(private readonly previous: PreviousHashes | undefined) {}

  private tally(kind: EntityKind): Tally {
    let t = this.tallies.get(kind);
    if (t === undefined) this.tallies.set(kind, (t = { added: 0, removed: 0, changed: 0 }));
    return t;
  }

  /** Compares one entity of the new payload (read now, not kept) with the last push's, and counts it. */
  compare(entity: EntityHash): void {
    if (this.previous === undefined) return;
    const before = this.previous.take(entity.kind, entity.scope, entity.keyPrefix, entity.keyValue);
    if (before === undefined) {
      this.tally(entity.kind).added++;
      return;
    }
    if (before !== entity.own) this.tally(entity.kind).changed++;
  }

  /**
   * What changed: a first push (no previous hashes) is summarized from `counts`; otherwise what is
   * left of the previous hashes was removed, listed by name (at most `REMOVED_NAMES_LISTED` per kind).
   */
  async summary(input: {
    template: Template;
    header: string;
    counts: EntityCounts;
    payload: JsonObject;
  }): Promise<DiffSummary> {
    if (this.previous === undefined) return firstPush(input.template, input.payload, input.counts);
    const removedNames: Partial<Record<EntityKind, string[]>> = {};
    for (const [kind, removed] of this.previous.missing()) this.tally(kind).removed = removed;
    // The names are read again from the snapshot, only when something was removed.
    for (const [kind, names] of await this.previous.missingNames(REMOVED_NAMES_LISTED))
      removedNames[kind] = names;
    const byKind: Partial<Record<EntityKind, KindCounts>> = {};
    const totals = { added: 0, removed: 0, changed: 0 };
    for (const [kind, t] of this.tallies) {
      if (t.added + t.removed + t.changed === 0) continue;
      byKind[kind] = t;
      totals.added += t.added;
      totals.removed += t.removed;
      totals.changed += t.changed;
    }
    return {
      firstPush: false,
      headerChanged: input.header !== this.previous.header,
      byKind,
      totals,
      ...(Object.keys(removedNames).length > 0 ? { removedNames } : {}),
    };
  }
}

/**
 * A first push: everything is added. Summarized from the entity counts, since diffing every entity
 * against nothing would build one diff item per entity only to count them.
 */
function firstPush(template: Template, next: JsonObject, counts: EntityCounts): DiffSummary {
  const byKind: Partial<Record<EntityKind, KindCounts>> = {};
  let added = 0;
  for (const [kind, n] of Object.entries(counts) as [EntityKind, number][]) {
    if (n === 0) continue;
    byKind[kind] = { added: n, removed: 0, changed: 0 };
    added += n;
  }
  return {
    firstPush: true,
    headerChanged: hasHeaderFields(template, next),
    byKind,
    totals: { added, removed: 0, changed: 0 },
  };
}
