/**
 * One scheduled run: the runner's pipeline for a connector of the current config, bracketed by a
 * start and an end log line and recorded in the metrics. It never throws: a failure is an outcome.
 */
import type { Client } from '@oaakit/client';
import type { Logger } from 'pino';
import type { LoadedConfig } from '../config/load-config.js';
import type { SecretSources } from '../credentials/secrets.js';
import type { PushSettings } from '../pipeline/run-types.js';
import { runConfiguredConnector } from '../run-configured.js';
import type { DaemonMetrics } from './metrics.js';
import { recordOfError, recordOfResult } from './run-record.js';
import type { RunRecord } from './run-record.js';

/** What every run of a daemon shares. */
export interface RunJobContext {
  /** The config in force when the run starts (a reload swaps it). */
  config: () => LoadedConfig;
  client: Client;
  logger: Logger;
  metrics: DaemonMetrics;
  secretSources?: SecretSources;
  push?: PushSettings;
}

/** One run to do. */
export interface ScheduledRun {
  connectorId: string;
  /** Aborted when a shutdown's grace period runs out. */
  signal: AbortSignal;
  /** When the cron tick that asked for this run was due. */
  scheduledFor: Date;
  /** Ticks skipped while this run was going; read when it ends. */
  overlapSkipped: () => number;
}

function logEnd(logger: Logger, connectorId: string, record: RunRecord): void {
  const { status, durationMs, entities, counts, bytes, overlapSkipped, error } = record;
  const fields = { event: 'run.end', connector: connectorId, status, durationMs, overlapSkipped };
  switch (status) {
    case 'pushed':
    case 'skipped':
      logger.info(
        { ...fields, entities, counts, bytes },
        status === 'pushed' ? 'run pushed' : 'run skipped: nothing changed',
      );
      return;
    case 'aborted':
      logger.warn({ ...fields, error }, 'run aborted at shutdown; the state is unchanged');
      return;
    case 'failed':
      logger.error({ ...fields, error }, 'run failed; the state is unchanged');
      return;
  }
}

/**
 * Runs a connector of the current config once and records the outcome. A connector that left the
 * config since its tick (a reload removed it) is not run.
 */
export async function runScheduled(ctx: RunJobContext, run: ScheduledRun): Promise<RunRecord | undefined> {
  const { connectorId } = run;
  const loaded = ctx.config();
  if (!loaded.config.connectors.some((c) => c.id === connectorId)) {
    ctx.logger.info(
      { event: 'run.cancelled', connector: connectorId },
      'connector removed from the config; not run',
    );
    return undefined;
  }
  const started = new Date();
  ctx.logger.info(
    { event: 'run.start', connector: connectorId, scheduledFor: run.scheduledFor.toISOString() },
    'run started',
  );
  ctx.metrics.runStarted(connectorId);
  let record: RunRecord;
  try {
    const result = await runConfiguredConnector({
      loaded,
      connectorId,
      client: ctx.client,
      logger: ctx.logger,
      signal: run.signal,
      ...(ctx.secretSources === undefined ? {} : { secretSources: ctx.secretSources }),
      ...(ctx.push === undefined ? {} : { push: ctx.push }),
    });
    record = recordOfResult(result, run.overlapSkipped());
  } catch (error) {
    record = recordOfError({ error, started, overlapSkipped: run.overlapSkipped() });
  }
  ctx.metrics.runFinished(connectorId, record);
  logEnd(ctx.logger, connectorId, record);
  return record;
}
