/**
 * extract, idempotent and streams-once: the checks read off the extract check's run (and, for
 * idempotent, a second extract of the unchanged source diffed against the first by the runner).
 */
import type { EntityCounts } from '@oaakit/core';
import type { DiffSummary } from '../pipeline/run-types.js';
import { describeError } from './error-rules.js';
import type { AcceptanceKit, EndedRun } from './kit.js';
import { fail, pass, skip } from './types.js';
import type { CheckOutcome, ExtractDetails } from './types.js';

/** `local_users 3, local_roles 2` (kinds with none left out). */
export function countsText(counts: EntityCounts): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([kind, n]) => `${kind} ${n}`);
  return parts.length === 0 ? 'no entities' : parts.join(', ');
}

/** What a run's diff against the saved state found: `local_users: 3 added, 3 removed`. */
export function diffText(diff: DiffSummary): string {
  const parts = Object.entries(diff.byKind).map(([kind, c]) => {
    const what = [
      c.added > 0 ? `${c.added} added` : '',
      c.removed > 0 ? `${c.removed} removed` : '',
      c.changed > 0 ? `${c.changed} changed` : '',
    ].filter((s) => s !== '');
    return `${kind}: ${what.join(', ')}`;
  });
  if (diff.headerChanged) parts.push('fields outside the entity collections changed');
  return parts.length === 0 ? 'the entities are the same' : parts.join('; ');
}

/** Why a run gave no result. */
export function runFailure(ended: EndedRun): string {
  return ended.hung === true ? 'it did not end, even when aborted' : describeError(ended.error);
}

/** The extract check. */
export async function checkExtract(kit: AcceptanceKit): Promise<CheckOutcome> {
  const base = await kit.baseline();
  if (base.result === undefined) return fail(`the extract failed: ${runFailure(base)}`);
  const { result, probe } = base;
  const details: ExtractDetails = {
    counts: result.counts,
    warnings: result.validationWarnings,
    digest: result.digest,
    requests: probe.requests,
    streamedItems: probe.streamedItems,
    jsonBytes: result.bytes?.json ?? 0,
  };
  const warnings = result.validationWarnings.length;
  return pass(
    `valid: ${countsText(result.counts)}; ${warnings} validation warning${warnings === 1 ? '' : 's'}`,
    { ...details },
  );
}

/** The idempotent check. */
export async function checkIdempotent(kit: AcceptanceKit): Promise<CheckOutcome> {
  const base = await kit.baseline();
  if (base.result === undefined) return skip('the extract check failed');
  const second = await kit.secondExtract();
  if (second?.result === undefined)
    return fail(
      `the second extract failed: ${second === undefined ? 'no saved payload' : runFailure(second)}`,
    );
  const digests = { first: base.result.digest, second: second.result.digest };
  if (digests.first === digests.second) return pass('two extracts gave the same digest', digests);
  return fail(
    `two extracts of the unchanged source differ (${diffText(second.result.diff)}): entity keys and values must not depend on the run (random ids, timestamps of the run)`,
    { ...digests, diff: second.result.diff },
  );
}

/** The streams-once check. */
export async function checkStreamsOnce(kit: AcceptanceKit): Promise<CheckOutcome> {
  const base = await kit.baseline();
  if (base.result === undefined) return skip('the extract check failed');
  const collections = base.probe.collections;
  if (collections.length === 0) return skip('extract returned no streamed collection (lists only)');
  const details = { collections: collections.map((c) => ({ ...c })) };
  const twice = collections.filter((c) => c.reads > 1);
  if (twice.length > 0) {
    const what = twice.map(
      (c) =>
        `${c.path} was read ${c.reads} times${c.oneShot ? ' (a one-shot iterable: every read after the first gets what the first left, usually nothing)' : ''}`,
    );
    return fail(`${what.join('; ')}; a streamed collection must be read once, by the runner`, details);
  }
  const unwatched = collections.filter((c) => !c.watched).map((c) => c.path);
  const watched = collections.length - unwatched.length;
  return pass(
    `${watched} streamed collection${watched === 1 ? '' : 's'}, each read once (${base.probe.streamedItems} items)` +
      (unwatched.length > 0 ? `; not watched (frozen): ${unwatched.join(', ')}` : ''),
    details,
  );
}
