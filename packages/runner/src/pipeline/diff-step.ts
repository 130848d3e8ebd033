/** The diff against the last push, its summary, and the mass-deletion guard. */
import { OaaError, diffPayloads, hasHeaderFields, identityKind } from '@oaakit/core';
import type { EntityCounts, EntityKind, JsonObject, KindCounts, PayloadDiff, Template } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import type { DiffSummary, GuardVerdict } from './run-types.js';

/** Share of the last push's identities a run may remove by default. */
export const DEFAULT_MAX_DELETION_SHARE = 0.2;

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

/**
 * Diffs `next` (holding `counts` entities) against the last pushed payload, or summarizes a first
 * push when there is none.
 */
export function diffAgainst(
  template: Template,
  previous: JsonObject | undefined,
  next: JsonObject,
  counts: EntityCounts,
): DiffSummary {
  if (previous === undefined) return firstPush(template, next, counts);
  const diff: PayloadDiff = diffPayloads(template, previous, next);
  const byKind: Partial<Record<EntityKind, KindCounts>> = {};
  for (const [kind, counts] of Object.entries(diff.counts) as [EntityKind, KindCounts][]) {
    if (counts.added + counts.removed + counts.changed > 0) byKind[kind] = counts;
  }
  return {
    firstPush: false,
    headerChanged: diff.headerChanged,
    byKind,
    totals: diff.totals,
  };
}

/** Judges the removals of `diff` against the identities of the last push; undefined on a first push. */
export function judgeDeletions(options: {
  template: Template;
  diff: DiffSummary;
  previousCounts: EntityCounts | undefined;
  maxShare: number | undefined;
  force: boolean;
}): GuardVerdict | undefined {
  if (options.diff.firstPush || options.previousCounts === undefined) return undefined;
  const kind = identityKind(options.template);
  const previous = options.previousCounts[kind] ?? 0;
  const removed = options.diff.byKind[kind]?.removed ?? 0;
  const share = previous === 0 ? 0 : removed / previous;
  const maxShare = options.maxShare ?? DEFAULT_MAX_DELETION_SHARE;
  const over = share > maxShare;
  return {
    kind,
    previous,
    removed,
    share,
    maxShare,
    refused: over && !options.force,
    forced: over && options.force,
  };
}

/** The refusal of a push the guard stopped. */
export function guardRefusal(connectorId: string, verdict: GuardVerdict): OaaError {
  const percent = (x: number): string => `${Math.round(x * 1000) / 10}%`;
  return new OaaError(
    `connector "${connectorId}": refusing to push, it would remove ${verdict.removed} of ${verdict.previous} ${verdict.kind} (${percent(verdict.share)}, more than the allowed ${percent(verdict.maxShare)})`,
    {
      code: RUNNER_ERROR_CODES.DELETION_GUARD,
      details: { connectorId, ...verdict },
      hints: [
        'check the source: an empty or partial export often looks like a mass deletion',
        'if the removals are intended, run again with --force (force: true)',
        'or raise maxDeletionShare for this connector in the config file',
      ],
    },
  );
}
