/**
 * One connector run: extract -> find or create provider and data source -> one pass over the
 * payload that validates, counts, digests, hashes, diffs and pushes it -> deletion guard and
 * unchanged check before the push's last bytes -> warnings -> commit the state. Streamed
 * collections are read once (see `readyForStreaming`). The state changes only after a successful
 * push (or a verified skip); any failure leaves it as it was.
 */
import { OaaError } from '@oaakit/core';
import type { JsonObject } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { connectorForConfig } from '../plugins/for-config.js';
import { silentLogger } from '../logger.js';
import { scrubbingLogger } from './scrubbing-logger.js';
import type { HeldLock } from '../state/lock.js';
import type { StoredState } from '../state/stored-state.js';
import { createConnectorState } from './connector-context.js';
import { ConnectorWarnings } from './connector-warnings.js';
import { abortedRun, extractPayload, parseConnectorConfig } from './extract-step.js';
import { readThrough, savePayloadFile } from './payload-bytes.js';
import { pushAndCommit } from './push-step.js';
import type { RunConnectorOptions, RunResult } from './run-types.js';
import { timing } from './run-scope.js';
import { openSource } from './source-recording.js';
import type { RunScope } from './run-scope.js';
import { asRunError, startPass } from './streamed-pass.js';

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

/** Extracts the payload: ready for the streamed pass, or whole when it is to be saved too. */
async function extract(scope: RunScope, stored: StoredState | undefined) {
  const { options, connectorId, emit, logger, signal } = scope;
  const { connector } = options;
  const config = parseConnectorConfig(
    connector,
    options.config,
    options.configKeyPath ?? 'config',
    connectorId,
  );
  const saved = createConnectorState(stored?.connectorState ?? {});
  emit({ phase: 'extract', kind: 'start' });
  const payload = await extractPayload({
    // --save-payload reads the payload twice (the file, then the push): it is held whole.
    whole: options.savePayload !== undefined && !options.dryRun,
    connector,
    connectorId,
    config,
    secrets: options.secrets ?? {},
    state: saved.state,
    signal,
    logger,
    warnings: scope.connectorWarnings,
    emit,
    fetch: options.sourceFetch,
    baseDir: options.baseDir,
  });
  emit({ phase: 'extract', kind: 'end' });
  return { payload, connectorState: saved.values() };
}

/** A dry run: one pass that validates, hashes and diffs the payload (and saves it when asked), no push. */
async function dryRun(
  scope: RunScope,
  payload: JsonObject,
  previous: StoredState | undefined,
): Promise<RunResult> {
  const { options, connectorId, logger } = scope;
  const previousHashes =
    previous === undefined ? undefined : await options.state.readSnapshot(connectorId, previous);
  const pass = startPass(scope, { payload, previous, previousHashes });
  const save = options.savePayload;
  let bytes: { json: number; compressed: number } | undefined;
  try {
    if (save !== undefined) bytes = await savePayloadFile(save, pass.value);
    else await readThrough(pass.value);
  } catch (error) {
    throw asRunError(scope, error);
  }
  const { base } = await pass.finish();
  if (base.guard?.forced) logger.warn({ guard: base.guard }, 'deletion guard overridden by force');
  if (save !== undefined) logger.info({ path: save }, 'payload saved');
  return {
    ...base,
    ...(bytes === undefined ? {} : { bytes, savedPayload: save }),
    provider: { name: options.provider },
    dataSource: { name: options.dataSource },
    status: 'dry-run',
    ...timing(scope),
  };
}

/**
 * Runs a connector once. Throws `OaaError`s with stable codes: `CONFIG_INVALID`, `STATE_LOCKED`,
 * `EXTRACT_FAILED`, `VALIDATION_FAILED` (a `ValidationError` listing every violation),
 * `DELETION_GUARD`, `PUSH_FAILED`, `TARGET_REFUSED`, `PAYLOAD_REFUSED`, `CREDENTIALS_REFUSED`, `ABORTED`,
 * `TARGET_MISSING`, `STATE_CORRUPT`, `HAR_INVALID` (the file of `replay` or `record` cannot be used).
 * With `record`, the source requests are written to that HAR file when the run ends, whether it
 * succeeded or failed; with `replay`, they are answered from one. A connector with `forConfig`
 * runs as the connector it makes of `config` (see `connectorForConfig`).
 *
 * @example
 * const result = await runConnector({ connector, config, provider: 'HR', dataSource: 'HR prod', client, state: new StateStore(dir) });
 * if (result.status === 'skipped') logger.info('nothing changed');
 */
export async function runConnector(options: RunConnectorOptions): Promise<RunResult> {
  const connectorId = options.connectorId ?? options.connector.id;
  if (!options.dryRun && options.client === undefined) {
    throw new OaaError(`connector "${connectorId}": no service to push to`, {
      code: RUNNER_ERROR_CODES.TARGET_MISSING,
      hints: [
        'pass a client (the CLI uses the embedded emulator when no target is configured), or run with dryRun',
      ],
    });
  }
  const connector = await connectorForConfig(options.connector, options.config, {
    connectorId,
    keyPath: options.configKeyPath,
    baseDir: options.baseDir,
  });
  const source = await openSource(
    options,
    `run of connector "${connectorId}" (plugin ${connector.id} ${connector.version})`,
  );
  const signal = options.signal ?? new AbortController().signal;
  const bound = connector === options.connector ? options : { ...options, connector };
  const scope: RunScope = {
    options: source.fetch === undefined ? bound : { ...bound, sourceFetch: source.fetch },
    connectorId,
    // Redaction by key is the logger's; the run's secret values are also taken out of any text.
    logger: scrubbingLogger(
      (options.logger ?? silentLogger()).child({ connector: connectorId }),
      Object.values(options.secrets ?? {}),
    ),
    signal,
    emit: (event) => options.onProgress?.({ connectorId, ...event }),
    started: new Date(),
    connectorWarnings: new ConnectorWarnings(Object.values(options.secrets ?? {})),
  };
  let result: RunResult;
  try {
    result = await runLocked(scope);
  } catch (error) {
    await source.failed(error, scope.logger);
    throw error;
  }
  await source.succeeded(result.status);
  return result;
}

/** The run under its state lock (none for a dry run). */
async function runLocked(scope: RunScope): Promise<RunResult> {
  const { options, connectorId, signal } = scope;
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

/** Extract, then a dry run's pass or the push. */
async function decide(scope: RunScope, stored: StoredState | undefined): Promise<RunResult> {
  const { options, connectorId, logger } = scope;
  const previous = sameTarget(scope, stored);
  const { payload, connectorState } = await extract(scope, stored);
  if (options.dryRun) return dryRun(scope, payload, previous);
  let saved: { path: string; bytes: { json: number; compressed: number } } | undefined;
  if (options.savePayload !== undefined) {
    saved = { path: options.savePayload, bytes: await savePayloadFile(options.savePayload, payload) };
    logger.info({ path: options.savePayload }, 'payload saved');
  }
  const previousHashes =
    previous === undefined ? undefined : await options.state.readSnapshot(connectorId, previous);
  return pushAndCommit(scope, {
    payload,
    previous,
    previousHashes,
    connectorState,
    ...(saved === undefined ? {} : { saved }),
  });
}
