/** The acceptance report as text: a table (check, result, why, time), then the extract's figures. */
import type { Violation } from '@oaakit/core';
import type { AcceptanceCheckResult, AcceptanceReport } from './types.js';

/** Width of the WHY column; longer reasons wrap onto the next lines. */
const WHY_WIDTH = 72;

function result(check: AcceptanceCheckResult): string {
  if (check.skipped) return 'SKIP';
  return check.ok ? 'PASS' : 'FAIL';
}

function time(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** `text` cut into lines of at most `width` characters, at spaces where there are some. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    let rest = word;
    while (rest.length > width) {
      if (line !== '') lines.push(line);
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
      line = '';
    }
    if (line === '') line = rest;
    else if (line.length + 1 + rest.length <= width) line += ` ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

function isViolations(x: unknown): x is Violation[] {
  return Array.isArray(x) && x.every((v) => typeof (v as Violation | null)?.field === 'string');
}

/**
 * The report as the CLI prints it: the connector, one row per check, then the extract check's
 * entity counts and validation warnings, and a last line saying whether every check passed.
 *
 * @example
 * process.stdout.write(formatAcceptanceReport(await runAcceptanceChecks(connector, options)));
 */
export function formatAcceptanceReport(report: AcceptanceReport): string {
  const { connector, checks } = report;
  const nameWidth = Math.max(5, ...checks.map((c) => c.name.length));
  const rows = checks.map((c) => ({ c, why: wrap(c.reason, WHY_WIDTH) }));
  const whyWidth = Math.max(3, ...rows.flatMap((r) => r.why.map((l) => l.length)));
  const out = [`connector ${connector.id} ${connector.version} (${connector.template})`, ''];
  const line = (check: string, res: string, why: string, t: string): string =>
    `${check.padEnd(nameWidth)}  ${res.padEnd(6)}  ${why.padEnd(whyWidth)}  ${t}`.trimEnd();
  out.push(line('CHECK', 'RESULT', 'WHY', 'TIME'));
  for (const { c, why } of rows) {
    out.push(line(c.name, result(c), why[0] ?? '', time(c.ms)));
    for (const more of why.slice(1)) out.push(line('', '', more, ''));
  }
  const extract = checks.find((c) => c.name === 'extract' && c.ok && !c.skipped);
  const counts = extract?.details?.['counts'];
  const warnings = extract?.details?.['warnings'];
  if (counts !== undefined && typeof counts === 'object' && counts !== null) {
    out.push('', 'entities:');
    for (const [kind, n] of Object.entries(counts)) if (n !== 0) out.push(`  ${kind}: ${String(n)}`);
  }
  if (isViolations(warnings) && warnings.length > 0) {
    out.push('', `validation warnings (${warnings.length}):`);
    for (const w of warnings) out.push(`  ${w.field}: ${w.description}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  const skipped = checks.filter((c) => c.skipped).length;
  const passed = checks.length - failed - skipped;
  out.push(
    '',
    failed === 0
      ? `all applicable checks passed (${passed} passed, ${skipped} skipped)`
      : `${failed} check${failed === 1 ? '' : 's'} failed (${passed} passed, ${skipped} skipped)`,
  );
  return `${out.join('\n')}\n`;
}
