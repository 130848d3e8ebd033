/**
 * The one pass of a run over its payload: validation (core's `validateAsRead`), entity counts, the
 * digest, the per-entity hashes of the next snapshot and the diff against the last push
 * (`hashAsRead` + `HashDiff`) all happen while the serializer of the push reads the payload, so a
 * streamed collection is read once and no more than one entity of it is held. `finish()` runs at
 * the end of the serialized bytes, before the push's last bytes leave, and judges the deletion
 * guard and whether anything changed.
 */
import { ValidationError, hashAsRead, validateAsRead } from '@oaakit/core';
import type { EntityCounts, JsonObject, Violation } from '@oaakit/core';
import type { EntityHashWriter } from '../state/entity-hash-writer.js';
import type { StoredState } from '../state/stored-state.js';
import type { PreviousHashes } from '../state/previous-hashes.js';
import { judgeDeletions } from './diff-step.js';
import { HashDiff } from './hash-diff.js';
import { throttle } from './progress.js';
import type { ResultBase, RunScope } from './run-scope.js';
import { logWarnings, validationFailure } from './validate-step.js';

/** What the pass found, once the payload has been read to its end. */
export interface PassVerdict {
  base: ResultBase;
  /** The digest equals the last push's: nothing changed. */
  unchanged: boolean;
}

/** A pass ready to be read. */
export interface StreamedPass {
  /** What the serializer reads in place of the payload. */
  readonly value: unknown;
  /** Header hash of the payload, for the snapshot's last line. */
  readonly header: string;
  /** Call once the serializer has read `value` to its end. */
  finish(): Promise<PassVerdict>;
}

/**
 * Starts the pass over `payload` (an object whose collections may be iterables, see
 * `readyForStreaming`). Throws the run's `VALIDATION_FAILED` at once when validation can tell
 * before reading the streamed collections; the read itself fails with core's `ValidationError`
 * before its end when an entity is invalid (see `asRunError`).
 */
export function startPass(
  scope: RunScope,
  input: {
    payload: JsonObject;
    previous: StoredState | undefined;
    previousHashes: PreviousHashes | undefined;
    snapshot?: EntityHashWriter;
  },
): StreamedPass {
  const { options, connectorId, emit } = scope;
  const template = options.connector.template;
  emit({ phase: 'validate', kind: 'start' });
  const checked = validateAsRead(template, input.payload);
  if (checked.errors.length > 0) throw validationFailure(connectorId, template, [...checked.errors]);
  emit({ phase: 'diff', kind: 'start' });
  const diff = new HashDiff(input.previousHashes);
  const gate = throttle(100);
  let entities = 0;
  const hashed = hashAsRead(template, checked.value as JsonObject, (entity) => {
    diff.compare(entity);
    input.snapshot?.add(entity);
    // The clock is read every 1,024 entities, not for each.
    if ((++entities & 1023) === 0 && gate.ready())
      emit({ phase: 'extract', kind: 'progress', step: 'entities', done: entities });
  });
  return {
    value: hashed.value,
    header: hashed.header,
    async finish() {
      if (!checked.complete || !hashed.complete)
        throw new Error('the payload was not read to its end before the pass was finished');
      const warnings: Violation[] = [...checked.warnings];
      const counts: EntityCounts = { ...hashed.counts };
      logWarnings(scope.logger, warnings);
      emit({ phase: 'validate', kind: 'end', counts, errors: 0, warnings: warnings.length });
      const summary = await diff.summary({ template, header: hashed.header, counts, payload: input.payload });
      const guard = judgeDeletions({
        template,
        diff: summary,
        previousCounts: input.previous?.counts,
        maxShare: options.maxDeletionShare,
        force: options.force ?? false,
      });
      emit({ phase: 'diff', kind: 'end', diff: summary });
      const newDigest = hashed.digest();
      const base: ResultBase = {
        connectorId,
        connector: { id: options.connector.id, version: options.connector.version },
        template,
        counts,
        digest: newDigest,
        diff: summary,
        guard,
        warnings: [],
        validationWarnings: warnings,
        // The connector is done: the pass has read everything it gives.
        ...scope.connectorWarnings.report(),
      };
      return { base, unchanged: input.previous !== undefined && input.previous.digest === newDigest };
    },
  };
}

/** A `ValidationError` of core thrown while the payload was read, as the run's `VALIDATION_FAILED`. */
export function asRunError(scope: RunScope, error: unknown): unknown {
  if (error instanceof ValidationError && error.details?.connectorId === undefined)
    return validationFailure(scope.connectorId, scope.options.connector.template, [...error.violations]);
  return error;
}
