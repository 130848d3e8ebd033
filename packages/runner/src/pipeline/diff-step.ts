/** The mass-deletion guard, judged on the diff against the last push (see `hash-diff.ts`). */
import { OaaError, identityKind } from '@oaakit/core';
import type { EntityCounts, Template } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import type { DiffSummary, GuardVerdict } from './run-types.js';

/** Share of the last push's identities a run may remove by default. */
export const DEFAULT_MAX_DELETION_SHARE = 0.2;

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
  const names = options.diff.removedNames?.[kind];
  return {
    kind,
    previous,
    removed,
    ...(names === undefined || removed === 0 ? {} : { removedNames: names }),
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
        ...(verdict.removedNames === undefined
          ? []
          : [
              `removed, among others: ${verdict.removedNames.slice(0, 10).join(', ')}${verdict.removed > 10 ? ', ...' : ''}`,
            ]),
        'check the source: an empty or partial export often looks like a mass deletion',
        'if the removals are intended, run again with --force (force: true)',
        'or raise maxDeletionShare for this connector in the config file',
      ],
    },
  );
}
