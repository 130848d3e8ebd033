/**
 * The pipeline's hook for `awaitParse` (see await-parse.ts): runs between the push and the state
 * commit, logs the verdict and its warnings, and fails the run when the service reports the push as
 * failed (discarding the snapshot, so the state stays as it was). A service that cannot be asked
 * (network, 5xx after retries) leaves the outcome `UNAVAILABLE` with a warning: the push succeeded.
 */
import type { SnapshotWriter } from '../state/state-store.js';
import { awaitParse, parseFailure, type ParseOutcome } from './await-parse.js';
import type { RunScope } from './run-scope.js';
import type { PushTargets } from './target-step.js';

/** Waits for the parse outcome unless `awaitParse` is false; throws `PAYLOAD_REFUSED` on FAILED. */
export async function awaitParseStep(
  scope: RunScope,
  targets: PushTargets,
  snapshot: SnapshotWriter,
): Promise<ParseOutcome | undefined> {
  const { options, logger, signal, connectorId } = scope;
  if (options.awaitParse === false || options.client === undefined) return undefined;
  const where = { provider: targets.provider.name, dataSource: targets.dataSource.name };
  let outcome: ParseOutcome;
  try {
    outcome = await awaitParse({
      client: options.client,
      providerId: targets.provider.id,
      dataSourceId: targets.dataSource.id,
      ...(options.awaitParse === undefined ? {} : { options: options.awaitParse }),
      signal,
    });
  } catch (error) {
    signal.throwIfAborted();
    logger.warn({ ...where, err: error }, 'could not read the parse outcome of the push');
    outcome = { status: 'UNAVAILABLE', dataSourceStatus: null, event: null };
  }
  for (const warning of outcome.event?.warnings ?? []) logger.warn(where, `push event: ${warning}`);
  logger.info(
    { ...where, parse: outcome.status, dataSourceStatus: outcome.dataSourceStatus },
    'parse outcome',
  );
  if (outcome.status === 'FAILED') {
    await snapshot.discard();
    throw parseFailure({ connectorId, provider: where.provider, dataSource: where.dataSource }, outcome);
  }
  return outcome;
}
