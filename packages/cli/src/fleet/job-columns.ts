/** How `oaa jobs list` shows jobs. */
import type { JobSummary } from '@oaakit/fleet';
import type { Column } from '../output/table.js';

/** Columns of a job list. */
export const JOB_COLUMNS: readonly Column<JobSummary>[] = [
  { header: 'ID', get: (j) => j.id },
  { header: 'CONNECTOR', get: (j) => j.connectorId },
  { header: 'STATE', get: (j) => j.state },
  { header: 'ATTEMPTS', get: (j) => `${j.attemptsMade}/${j.attempts}`, right: true },
  { header: 'CREATED', get: (j) => j.createdAt },
  { header: 'REASON', get: (j) => j.failedReason },
];
