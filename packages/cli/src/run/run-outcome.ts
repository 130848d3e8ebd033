/** Turns the outcomes of `oaa run` into its JSON output, its report file and its exit. */
import { writeFile } from 'node:fs/promises';
import { OaaError } from '@oaakit/core';
import type { ConnectorOutcome, RunResult } from '@oaakit/runner';
import { plural } from '../output/format.js';

/** What `oaa run --json` prints and `--report` writes. */
export interface RunOutput {
  dryRun: boolean;
  results: RunResult[];
  failures: { connectorId: string; error: Record<string, unknown> }[];
}

/** The outcomes split into results and failures. */
export function runOutput(outcomes: readonly ConnectorOutcome[], dryRun: boolean): RunOutput {
  const results: RunResult[] = [];
  const failures: RunOutput['failures'] = [];
  for (const o of outcomes) {
    if (o.ok) results.push(o.result);
    else failures.push({ connectorId: o.connectorId, error: o.error.toJSON() });
  }
  return { dryRun, results, failures };
}

/** Writes the report file (JSON), whatever the outcome. */
export async function writeReport(path: string, output: RunOutput): Promise<void> {
  try {
    await writeFile(path, `${JSON.stringify(output, null, 2)}\n`);
  } catch (cause) {
    throw new OaaError(`cannot write the report ${path}: ${(cause as Error).message}`, {
      code: 'FILE_UNREADABLE',
      cause,
      details: { path },
    });
  }
}

/** Warnings of every result: the service's and local validation's. */
export function warningTotal(results: readonly RunResult[]): number {
  return results.reduce((n, r) => n + r.warnings.length + r.validationWarnings.length, 0);
}

/**
 * The error `oaa run` ends with, or undefined on success: a single failure as it is; several as one
 * error with the first failure's code (so its exit code); warnings with `--fail-on-warnings`.
 */
export function runFailure(
  outcomes: readonly ConnectorOutcome[],
  output: RunOutput,
  failOnWarnings: boolean,
): OaaError | undefined {
  const failed = outcomes.filter((o): o is Extract<ConnectorOutcome, { ok: false }> => !o.ok);
  const first = failed[0];
  if (first !== undefined && outcomes.length === 1) return first.error;
  if (first !== undefined) {
    const ids = failed.map((f) => f.connectorId).join(', ');
    return new OaaError(`${failed.length} of ${plural(outcomes.length, 'connector')} failed: ${ids}`, {
      code: first.error.code,
      details: { results: output.results, failures: output.failures },
      hints: [
        'each failure is shown above; fix them and run again (connectors that succeeded will report no change)',
      ],
    });
  }
  const warnings = warningTotal(output.results);
  if (failOnWarnings && warnings > 0) {
    return new OaaError(
      `the run finished with ${plural(warnings, 'warning')}, and --fail-on-warnings is set`,
      {
        code: 'WARNINGS',
        details: { results: output.results },
        hints: ['the warnings are listed above; fix the data, or drop --fail-on-warnings to accept them'],
      },
    );
  }
  return undefined;
}
