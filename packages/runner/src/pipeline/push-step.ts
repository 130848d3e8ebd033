/** The push and the commit that follows it; a failure of either call is a `serviceFailure`. */
import type { JsonObject } from '@oaakit/core';
import type { SnapshotWriter } from '../state/state-store.js';
import type { StoredState } from '../state/stored-state.js';
import { STATE_FORMAT_VERSION } from '../state/stored-state.js';
import { awaitParseStep } from './await-parse-step.js';
import { pushWithSnapshot } from './payload-bytes.js';
import type { PushOutcome } from './payload-bytes.js';
import { throttle } from './progress.js';
import type { RunResult } from './run-types.js';
import { timing } from './run-scope.js';
import type { ResultBase, RunScope } from './run-scope.js';
import { serviceFailure } from './service-failure.js';
import type { ServiceStep } from './service-failure.js';
import { ensureTargets } from './target-step.js';
import type { PushTargets } from './target-step.js';

/** Runs `call`; what it throws becomes the run's service failure of `step` (unless the run was aborted). */
async function guarded<T>(scope: RunScope, step: ServiceStep, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    scope.signal.throwIfAborted();
    throw serviceFailure(scope, step, error);
  }
}

interface Pushed {
  targets: PushTargets;
  outcome: PushOutcome;
  snapshot: SnapshotWriter;
}

async function push(scope: RunScope, payload: JsonObject, digest: string): Promise<Pushed> {
  const { options, signal, emit } = scope;
  const client = options.client!;
  const targets = await guarded(scope, 'target', () =>
    ensureTargets({
      client,
      connector: options.connector,
      provider: options.provider,
      dataSource: options.dataSource,
      signal,
      logger: scope.logger,
    }),
  );
  return guarded(scope, 'push', async () => {
    const snapshot = await options.state.openSnapshot(scope.connectorId, digest);
    emit({ phase: 'push', kind: 'start' });
    const gate = throttle(100);
    try {
      const outcome = await pushWithSnapshot({
        client,
        providerId: targets.provider.id,
        dataSourceId: targets.dataSource.id,
        payload,
        snapshot,
        settings: options.push ?? {},
        signal,
        onBytes: (jsonBytes, compressedBytes) => {
          if (gate.ready()) emit({ phase: 'push', kind: 'progress', jsonBytes, compressedBytes });
        },
      });
      return { targets, outcome, snapshot };
    } catch (error) {
      await snapshot.discard();
      throw error;
    }
  });
}

/**
 * Pushes the payload, then commits the new state (snapshot, ids, digest, counts, the connector's
 * saved values) and the report. A failure before the commit leaves the state as it was.
 */
export async function pushAndCommit(
  scope: RunScope,
  input: { payload: JsonObject; base: ResultBase; connectorState: Record<string, unknown> },
): Promise<RunResult> {
  const { options, connectorId, logger } = scope;
  const pushed = await push(scope, input.payload, input.base.digest);
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

  const parse = await awaitParseStep(scope, targets, pushed.snapshot);
  const result: RunResult = {
    ...input.base,
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
    snapshot: pushed.snapshot.name,
    pushedAt: result.finishedAt,
    updatedAt: result.finishedAt,
    connectorState: input.connectorState,
  };
  try {
    await options.state.commit(connectorId, { state, report: result, snapshot: pushed.snapshot });
  } finally {
    await pushed.snapshot.discard();
  }
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
