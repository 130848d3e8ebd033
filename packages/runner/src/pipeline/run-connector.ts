/**
 * One connector run: extract -> validate -> diff -> deletion guard -> skip when unchanged -> find or
 * create provider and data source -> push -> warnings -> commit the state. The state changes only
 * after a successful push (or a verified skip); any failure leaves it as it was.
 */
import { OaaError, countEntities, digest } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { silentLogger } from '../logger.js';
import type { HeldLock } from '../state/lock.js';
import type { StoredState } from '../state/stored-state.js';
import { createConnectorState } from './connector-context.js';
import { diffAgainst, guardRefusal, judgeDeletions } from './diff-step.js';
import { abortedRun, extractPayload, parseConnectorConfig } from './extract-step.js';
import { savePayloadFile } from './payload-bytes.js';
import { pushAndCommit } from './push-step.js';
import type { DiffSummary, RunConnectorOptions, RunResult } from './run-types.js';
import { timing } from './run-scope.js';
import type { ResultBase, RunScope } from './run-scope.js';
import { serviceFailure } from './service-failure.js';
import { targetsStillExist } from './target-step.js';
import { validatePayload } from './validate-step.js';

function noChange(): DiffSummary {
  return { firstPush: false, headerChanged: false, byKind: {}, totals: { added: 0, removed: 0, changed: 0 } };
}

/** The last push's state when it went to the same provider and data source with the same template. */
function sameTarget(scope: RunScope, state: StoredState | undefined): StoredState | undefined {
  if (state === undefined) return undefined;
  const { options } = scope;
  if (
    state.template === options.connector.template &&
    state.provider.name === options.provider &&
    state.dataSource.name === options.dataSource
  ) {
    return state;
  }
  scope.logger.info(
    'the provider, data source or template changed since the last push; diffing against nothing',
  );
  return undefined;
}

/** Everything up to the push decision: the result so far, the payload, the last push. */
async function prepare(scope: RunScope, stored: StoredState | undefined) {
  const { options, connectorId, emit, logger, signal } = scope;
  const { connector } = options;
  const template = connector.template;
  const config = parseConnectorConfig(
    connector,
    options.config,
    options.configKeyPath ?? 'config',
    connectorId,
  );
  const previous = sameTarget(scope, stored);
  const saved = createConnectorState(stored?.connectorState ?? {});

  emit({ phase: 'extract', kind: 'start' });
  const payload = await extractPayload({
    connector,
    connectorId,
    config,
    secrets: options.secrets ?? {},
    state: saved.state,
    signal,
    logger,
    emit,
    fetch: options.sourceFetch,
    baseDir: options.baseDir,
  });
  const counts = countEntities(template, payload);
  emit({ phase: 'extract', kind: 'end', counts });

  emit({ phase: 'validate', kind: 'start' });
  const validationWarnings = validatePayload({ template, payload, connectorId, logger });
  emit({ phase: 'validate', kind: 'end', counts, errors: 0, warnings: validationWarnings.length });

  emit({ phase: 'diff', kind: 'start' });
  const newDigest = digest(template, payload);
  const unchanged = previous !== undefined && previous.digest === newDigest;
  // Equal digests mean equal data, so the snapshot is read only when something changed.
  const before =
    previous === undefined || unchanged ? undefined : await options.state.readSnapshot(connectorId, previous);
  const diff = unchanged ? noChange() : diffAgainst(template, before, payload, counts);
  const guard = judgeDeletions({
    template,
    diff,
    previousCounts: previous?.counts,
    maxShare: options.maxDeletionShare,
    force: options.force ?? false,
  });
  emit({ phase: 'diff', kind: 'end', diff });

  const base: ResultBase = {
    connectorId,
    connector: { id: connector.id, version: connector.version },
    template,
    counts,
    digest: newDigest,
    diff,
    guard,
    warnings: [],
    validationWarnings,
  };
  return { base, payload, unchangedSince: unchanged ? previous : undefined, connectorState: saved.values() };
}

/**
 * Runs a connector once. Throws `OaaError`s with stable codes: `CONFIG_INVALID`, `STATE_LOCKED`,
 * `EXTRACT_FAILED`, `VALIDATION_FAILED` (a `ValidationError` listing every violation),
 * `DELETION_GUARD`, `PUSH_FAILED`, `TARGET_REFUSED`, `PAYLOAD_REFUSED`, `CREDENTIALS_REFUSED`, `ABORTED`,
 * `TARGET_MISSING`, `STATE_CORRUPT`.
 *
 * @example
 * const result = await runConnector({ connector, config, provider: 'HR', dataSource: 'HR prod', client, state: new StateStore(dir) });
 * if (result.status === 'skipped') logger.info('nothing changed');
 */
export async function runConnector(options: RunConnectorOptions): Promise<RunResult> {
  const connectorId = options.connectorId ?? options.connector.id;
  const signal = options.signal ?? new AbortController().signal;
  const scope: RunScope = {
    options,
    connectorId,
    logger: (options.logger ?? silentLogger()).child({ connector: connectorId }),
    signal,
    emit: (event) => options.onProgress?.({ connectorId, ...event }),
    started: new Date(),
  };
  if (!options.dryRun && options.client === undefined) {
    throw new OaaError(`connector "${connectorId}": no service to push to`, {
      code: RUNNER_ERROR_CODES.TARGET_MISSING,
      hints: [
        'pass a client (the CLI uses the embedded emulator when no target is configured), or run with dryRun',
      ],
    });
  }
  let lock: HeldLock | undefined;
  try {
    if (!options.dryRun) {
      lock = await options.state.lock(connectorId, {
        waitMs: options.lockWaitMs ?? 0,
        owner: `run of ${connectorId}`,
        signal,
      });
      await options.state.sweep(connectorId);
    }
    return await decide(scope, await options.state.read(connectorId));
  } catch (error) {
    if (signal.aborted && !(error instanceof OaaError && error.code === RUNNER_ERROR_CODES.ABORTED))
      throw abortedRun(connectorId, error);
    throw error;
  } finally {
    await lock?.release();
  }
}

/** Whether the last push's provider and data source still exist; service failures as `serviceFailure`. */
async function stillThere(scope: RunScope, state: StoredState): Promise<boolean> {
  try {
    return await targetsStillExist(scope.options.client!, state, scope.signal);
  } catch (error) {
    scope.signal.throwIfAborted();
    throw serviceFailure(scope, 'target', error);
  }
}

/** Guard, save, dry-run, skip or push. */
async function decide(scope: RunScope, stored: StoredState | undefined): Promise<RunResult> {
  const { options, connectorId, logger } = scope;
  const { base, payload, unchangedSince, connectorState } = await prepare(scope, stored);
  if (base.guard?.refused && !options.dryRun) throw guardRefusal(connectorId, base.guard);
  if (base.guard?.forced) logger.warn({ guard: base.guard }, 'deletion guard overridden by force');
  if (options.savePayload !== undefined) {
    base.bytes = await savePayloadFile(options.savePayload, payload);
    base.savedPayload = options.savePayload;
    logger.info({ path: options.savePayload }, 'payload saved');
  }
  const names = { provider: { name: options.provider }, dataSource: { name: options.dataSource } };
  if (options.dryRun) return { ...base, ...names, status: 'dry-run', ...timing(scope) };

  if (unchangedSince !== undefined && (await stillThere(scope, unchangedSince))) {
    const result: RunResult = {
      ...base,
      status: 'skipped',
      skipped: 'unchanged',
      provider: { ...unchangedSince.provider, created: false },
      dataSource: { ...unchangedSince.dataSource, created: false },
      ...timing(scope),
    };
    const state: StoredState = {
      ...unchangedSince,
      plugin: result.connector,
      updatedAt: result.finishedAt,
      connectorState,
    };
    await options.state.commit(connectorId, { state, report: result });
    logger.info('nothing changed since the last push; skipped');
    return result;
  }
  if (unchangedSince !== undefined)
    logger.warn('the provider or data source of the last push is gone from the service; pushing again');
  return pushAndCommit(scope, { payload, base, connectorState });
}
