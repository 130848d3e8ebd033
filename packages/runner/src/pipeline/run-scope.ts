/** What every step of one run shares. */
import type { Logger } from 'pino';
import type { ConnectorWarnings } from './connector-warnings.js';
import type { Emit } from './progress.js';
import type { RunConnectorOptions, RunResultCommon } from './run-types.js';

/** The run being carried out. */
export interface RunScope {
  options: RunConnectorOptions;
  connectorId: string;
  logger: Logger;
  signal: AbortSignal;
  emit: Emit;
  started: Date;
  /** What the connector reports with `ctx.logger.warn`, for the result. */
  connectorWarnings: ConnectorWarnings;
}

/** The parts of a result known before the push. */
export type ResultBase = Omit<RunResultCommon, 'startedAt' | 'finishedAt' | 'durationMs'>;

/** The timing fields of a result, taken now. */
export function timing(scope: RunScope): Pick<RunResultCommon, 'startedAt' | 'finishedAt' | 'durationMs'> {
  const end = new Date();
  return {
    startedAt: scope.started.toISOString(),
    finishedAt: end.toISOString(),
    durationMs: end.getTime() - scope.started.getTime(),
  };
}
