/** What the daemon remembers of one finished run, for `/healthz`, the metrics and the log line. */
import { isOaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import type { EntityCounts } from '@oaakit/core';
import type { RunResult } from '../pipeline/run-types.js';

/**
 * How a scheduled run ended: `pushed`; `skipped` (nothing changed since the last push); `failed`
 * (an error, the state unchanged); `aborted` (cancelled at shutdown, the state unchanged).
 */
export type DaemonRunStatus = 'pushed' | 'skipped' | 'failed' | 'aborted';

/** Every {@link DaemonRunStatus}, in the order metrics list them. */
export const DAEMON_RUN_STATUSES: readonly DaemonRunStatus[] = ['pushed', 'skipped', 'failed', 'aborted'];

/** One finished run. Carries no secret: errors are reduced to their code and message. */
export interface RunRecord {
  status: DaemonRunStatus;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Entities in the payload (all kinds), when the run got that far. */
  entities?: number;
  counts?: EntityCounts;
  /** Bytes of JSON and of gzip pushed, when something was pushed. */
  bytes?: { json: number; compressed: number };
  /** Scheduled ticks skipped while this run was going. */
  overlapSkipped: number;
  error?: { code: string; message: string; retryable: boolean };
}

/** Sum of the entity counts of a payload. */
export function entityTotal(counts: EntityCounts): number {
  return Object.values(counts).reduce<number>((sum, n) => sum + (n ?? 0), 0);
}

/** The record of a run that returned a result. */
export function recordOfResult(result: RunResult, overlapSkipped: number): RunRecord {
  return {
    status: result.status === 'pushed' ? 'pushed' : 'skipped',
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    durationMs: result.durationMs,
    entities: entityTotal(result.counts),
    counts: result.counts,
    ...(result.status === 'pushed' ? { bytes: result.bytes } : {}),
    overlapSkipped,
  };
}

/** The record of a run that threw. */
export function recordOfError(options: { error: unknown; started: Date; overlapSkipped: number }): RunRecord {
  const { error, started } = options;
  const finished = new Date();
  const code = isOaaError(error) ? error.code : 'UNEXPECTED';
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: code === RUNNER_ERROR_CODES.ABORTED ? 'aborted' : 'failed',
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    overlapSkipped: options.overlapSkipped,
    error: { code, message, retryable: isOaaError(error) ? error.retryable : false },
  };
}
