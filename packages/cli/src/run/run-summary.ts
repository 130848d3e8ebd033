/** The human view of run results: the summary table and the dry-run diff. */
import type { EntityKind } from '@oaakit/core';
import type { ConnectorWarning, EntityCounts, RunResult } from '@oaakit/runner';
import { formatBytes, formatDuration } from '../output/format.js';
import { renderTable } from '../output/table.js';
import type { Column } from '../output/table.js';

/** `local_users 10, local_groups 1`; kinds with none left out. */
export function formatCounts(counts: EntityCounts): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n !== undefined && n > 0)
    .map(([kind, n]) => `${kind} ${n}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

function warningCount(r: RunResult): number {
  return r.warnings.length + r.validationWarnings.length;
}

const COLUMNS: readonly Column<RunResult>[] = [
  { header: 'CONNECTOR', get: (r) => r.connectorId },
  { header: 'STATUS', get: (r) => (r.status === 'skipped' ? 'unchanged' : r.status) },
  { header: 'PROVIDER', get: (r) => r.provider.name },
  { header: 'DATA SOURCE', get: (r) => r.dataSource.name },
  { header: 'ENTITIES', get: (r) => formatCounts(r.counts) },
  {
    header: 'BYTES',
    get: (r) => (r.bytes === undefined ? undefined : formatBytes(r.bytes.compressed)),
    right: true,
  },
  {
    header: 'PUSH',
    get: (r) =>
      r.status !== 'pushed'
        ? undefined
        : r.push.mode === 'single'
          ? 'single'
          : `multipart (${r.push.chunks})`,
  },
  {
    header: 'PARSE',
    get: (r) => (r.status === 'pushed' && r.parse !== undefined ? r.parse.status : undefined),
  },
  { header: 'WARNINGS', get: (r) => warningCount(r), right: true },
  { header: 'DURATION', get: (r) => formatDuration(r.durationMs), right: true },
];

/** The summary table of finished runs. */
export function summaryTable(results: readonly RunResult[]): string {
  return renderTable(COLUMNS, results);
}

interface DiffRow {
  kind: string;
  added: number;
  removed: number;
  changed: number;
}

const DIFF_COLUMNS: readonly Column<DiffRow>[] = [
  { header: 'KIND', get: (r) => r.kind },
  { header: 'ADDED', get: (r) => r.added, right: true },
  { header: 'REMOVED', get: (r) => r.removed, right: true },
  { header: 'CHANGED', get: (r) => r.changed, right: true },
];

/** What a dry run would push, per entity kind, for one connector. */
export function diffLines(result: RunResult): string[] {
  const { diff } = result;
  const head = `${result.connectorId}: ${result.provider.name} / ${result.dataSource.name}`;
  const rows: DiffRow[] = Object.entries(diff.byKind).map(([kind, c]) => ({
    kind: kind as EntityKind,
    ...c,
  }));
  const lines = [diff.firstPush ? `${head} (first push: everything is new)` : head];
  if (rows.length === 0 && !diff.headerChanged) {
    lines.push('  no changes since the last push; a run would push nothing');
    return lines;
  }
  if (rows.length > 0)
    lines.push(
      ...renderTable(DIFF_COLUMNS, [...rows, { kind: 'total', ...diff.totals }])
        .split('\n')
        .map((l) => `  ${l}`),
    );
  if (diff.headerChanged) lines.push('  top-level fields changed');
  if (result.guard?.refused) {
    const g = result.guard;
    lines.push(
      `  a real run would be refused: it removes ${g.removed} of ${g.previous} ${g.kind} (${Math.round(g.share * 100)}% > ${Math.round(g.maxShare * 100)}%); --force overrides`,
    );
  }
  return lines;
}

/** Connector warnings spelled out after the summary; the result lists up to 1,000. */
export const CONNECTOR_WARNING_LINES = 5;

/** Details longer than this are cut in the summary (the result has them whole). */
const DETAILS_CHARS = 160;

function warningLine(w: ConnectorWarning): string {
  if (w.details === undefined) return w.message;
  const text = JSON.stringify(w.details);
  return `${w.message} ${text.length > DETAILS_CHARS ? `${text.slice(0, DETAILS_CHARS - 3)}...` : text}`;
}

/**
 * What the connector of `result` reported with `ctx.logger.warn`: how many, the first few, and
 * where the rest are. No lines when it reported nothing.
 */
export function connectorWarningLines(result: RunResult, max = CONNECTOR_WARNING_LINES): string[] {
  const listed = result.connectorWarnings;
  const total = listed.length + (result.connectorWarningsOmitted ?? 0);
  if (total === 0) return [];
  const lines = [`Connector warnings of ${result.connectorId} (${total}):`];
  for (const w of listed.slice(0, max)) lines.push(`  ${warningLine(w)}`);
  if (total > max) {
    const where =
      total > listed.length
        ? `the first ${listed.length} are in --json and --report output`
        : 'all of them are in --json and --report output';
    lines.push(`  ... and ${total - max} more (${where})`);
  }
  return lines;
}
