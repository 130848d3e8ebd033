/**
 * The push, in the run's one pass over the payload, and the commit that follows it. The new
 * snapshot (entity hashes) is written to a temporary file as the push goes and committed with the
 * state only after the push succeeded. The deletion guard and the unchanged check are judged once
 * every byte is serialized but before the client sends the single push or completes the multipart
 * upload, so a refusal sends nothing that the service would take as a payload.
 */
import { randomBytes } from 'node:crypto';
import { OaaError } from '@oaakit/core';
import type { JsonObject } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { EntityHashWriter } from '../state/entity-hash-writer.js';
import type { PreviousHashes } from '../state/previous-hashes.js';
import type { SnapshotWriter } from '../state/state-store.js';
import type { StoredState } from '../state/stored-state.js';
import { STATE_FORMAT_VERSION } from '../state/stored-state.js';
import { awaitParseStep } from './await-parse-step.js';
import { guardRefusal } from './diff-step.js';
import { pushOnce } from './payload-bytes.js';
import { throttle } from './progress.js';
import type { RunResult } from './run-types.js';
import { timing } from './run-scope.js';
import type { RunScope } from './run-scope.js';
import { serviceFailure } from './service-failure.js';
import type { ServiceStep } from './service-failure.js';
import { asRunError, startPass } from './streamed-pass.js';
import type { PassVerdict } from './streamed-pass.js';
import { ensureTargets } from './target-step.js';
import type { PushTargets } from './target-step.js';

/** Codes of the run's own errors that can come out of the push's pass; they pass through as they are. */
const OWN_CODES: ReadonlySet<string> = new Set([
  RUNNER_ERROR_CODES.EXTRACT_FAILED,
  'VALIDATION_FAILED',
  RUNNER_ERROR_CODES.DELETION_GUARD,
  RUNNER_ERROR_CODES.ABORTED,
]);

/** Thrown at the end of the pass when the payload is the last push's: the push stops unsent. */
class Unchanged extends Error {}

/** Runs `call`; what it throws becomes the run's service failure of `step`, unless it is the run's own. */
async function guarded<T>(scope: RunScope, step: ServiceStep, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    scope.signal.throwIfAborted();
    const own = asRunError(scope, error);
    if (own instanceof Unchanged || (own instanceof OaaError && OWN_CODES.has(String(own.code)))) throw own;
    throw serviceFailure(scope, step, error);
  }
}

/** Whether the targets found are those of the last push (not gone and created again). */
function sameTargets(targets: PushTargets, previous: StoredState): boolean {
  return (
    !targets.provider.created &&
    !targets.dataSource.created &&
    targets.provider.id === previous.provider.id &&
    targets.dataSource.id === previous.dataSource.id
  );
}

/** What a pushing run starts from. */
export interface PushInput {
  payload: JsonObject;
  /** The last push to the same target, if any. */
  previous: StoredState | undefined;
  previousHashes: PreviousHashes | undefined;
  connectorState: Record<string, unknown>;
  /** Set when the payload was saved with `savePayload`. */
  saved?: { path: string; bytes: { json: number; compressed: number } };
}

/**
 * Finds or creates the targets, pushes the payload in one pass (validated, hashed and diffed as it
 * is serialized), then commits the new state (snapshot, ids, digest, counts, the connector's saved
 * values) and the report. An unchanged payload whose targets still exist is not pushed: the run is
 * `skipped`. A failure before the commit leaves the state as it was.
 */
export async function pushAndCommit(scope: RunScope, input: PushInput): Promise<RunResult> {
  const { options, connectorId, logger, signal, emit } = scope;
  const client = options.client!;
  const { previous } = input;
  const targets = await guarded(scope, 'target', () =>
    ensureTargets({
      client,
      connector: options.connector,
      provider: options.provider,
      dataSource: options.dataSource,
      signal,
      logger,
    }),
  );
  const file = await options.state.openSnapshot(connectorId, randomBytes(16).toString('hex'));
  const snapshot = new EntityHashWriter(file, options.connector.template);
  let verdict: PassVerdict | undefined;
  try {
    const pass = startPass(scope, {
      payload: input.payload,
      previous,
      previousHashes: input.previousHashes,
      snapshot,
    });
    emit({ phase: 'push', kind: 'start' });
    const gate = throttle(100);
    const outcome = await guarded(scope, 'push', () =>
      pushOnce({
        client,
        providerId: targets.provider.id,
        dataSourceId: targets.dataSource.id,
        value: pass.value,
        snapshot,
        settings: options.push ?? {},
        signal,
        onBytes: (jsonBytes, compressedBytes) => {
          if (gate.ready()) emit({ phase: 'push', kind: 'progress', jsonBytes, compressedBytes });
        },
        atEnd: async () => {
          verdict = await pass.finish();
          const { guard } = verdict.base;
          if (guard?.refused) throw guardRefusal(connectorId, guard);
          if (guard?.forced) logger.warn({ guard }, 'deletion guard overridden by force');
          if (verdict.unchanged && previous !== undefined) {
            if (sameTargets(targets, previous)) throw new Unchanged();
            logger.warn(
              'the provider or data source of the last push is gone from the service; pushing again',
            );
          }
        },
      }),
    );
    await snapshot.finish(pass.header);
    return await commitPushed(scope, input, {
      targets,
      outcome,
      verdict: verdict!,
      snapshotName: file.name,
      file,
    });
  } catch (error) {
    snapshot.abort();
    if (error instanceof Unchanged && verdict !== undefined && previous !== undefined)
      return commitSkipped(scope, input, verdict, previous);
    throw error;
  } finally {
    await file.discard();
  }
}

/** Commits an unchanged run: the last push's state with this run's plugin version and saved values. */
async function commitSkipped(
  scope: RunScope,
  input: PushInput,
  verdict: PassVerdict,
  previous: StoredState,
): Promise<RunResult> {
  const result: RunResult = {
    ...verdict.base,
    ...(input.saved === undefined ? {} : { bytes: input.saved.bytes, savedPayload: input.saved.path }),
    status: 'skipped',
    skipped: 'unchanged',
    provider: { ...previous.provider, created: false },
    dataSource: { ...previous.dataSource, created: false },
    ...timing(scope),
  };
  const state: StoredState = {
    ...previous,
    plugin: result.connector,
    updatedAt: result.finishedAt,
    connectorState: input.connectorState,
  };
  await scope.options.state.commit(scope.connectorId, { state, report: result });
  scope.logger.info('nothing changed since the last push; skipped');
  return result;
}

async function commitPushed(
  scope: RunScope,
  input: PushInput,
  pushed: {
    targets: PushTargets;
    outcome: Awaited<ReturnType<typeof pushOnce>>;
    verdict: PassVerdict;
    snapshotName: string;
    file: SnapshotWriter;
  },
): Promise<RunResult> {
  const { options, connectorId, logger } = scope;
  const { targets, outcome } = pushed;
  scope.emit({
    phase: 'push',
    kind: 'end',
    jsonBytes: outcome.jsonBytes,
    compressedBytes: outcome.compressedBytes,
  });
  for (const warning of outcome.warnings)
    logger.warn(
      { provider: targets.provider.name, dataSource: targets.dataSource.name },
      `service warning: ${warning.message ?? ''}`,
    );

  const parse = await awaitParseStep(scope, targets, pushed.file);
  const result: RunResult = {
    ...pushed.verdict.base,
    ...(input.saved === undefined ? {} : { savedPayload: input.saved.path }),
    status: 'pushed',
    provider: targets.provider,
    dataSource: targets.dataSource,
    bytes: { json: outcome.jsonBytes, compressed: outcome.compressedBytes },
    push: { mode: outcome.mode, chunks: outcome.chunks },
    ...(parse === undefined ? {} : { parse }),
    warnings: outcome.warnings,
    ...timing(scope),
  };
  const state: StoredState = {
    version: STATE_FORMAT_VERSION,
    connectorId,
    plugin: result.connector,
    template: result.template,
    provider: { id: targets.provider.id, name: targets.provider.name },
    dataSource: { id: targets.dataSource.id, name: targets.dataSource.name },
    digest: result.digest,
    counts: result.counts,
    snapshot: pushed.snapshotName,
    pushedAt: result.finishedAt,
    updatedAt: result.finishedAt,
    connectorState: input.connectorState,
  };
  await options.state.commit(connectorId, { state, report: result, snapshot: pushed.file });
  logger.info(
    {
      provider: targets.provider.name,
      dataSource: targets.dataSource.name,
      mode: outcome.mode,
      compressedBytes: outcome.compressedBytes,
      warnings: outcome.warnings.length,
    },
    'pushed',
  );
  return result;
}
