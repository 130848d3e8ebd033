/**
 * The connector acceptance kit: runs a connector, as `oaa run` loads and runs it, through the
 * checks of `ACCEPTANCE_CHECKS` and reports each (passed, failed, or skipped when it does not
 * apply). A check is a function from the shared `AcceptanceKit` to a verdict; this module runs
 * them in order, times them, and clears every reason and figure of the secrets' values. The
 * no-secret-leaks check runs last, whatever its place in the report, so that it searches what
 * every other check left (log lines and errors).
 */
import { OaaError } from '@oaakit/core';
import type { Connector } from '@oaakit/core';
import { checkCancels } from './check-cancels.js';
import { checkCredentials } from './check-credentials.js';
import { checkDefinition } from './check-definition.js';
import { checkExtract, checkIdempotent, checkStreamsOnce } from './check-extract.js';
import { checkIncremental } from './check-incremental.js';
import { checkLeaks } from './check-leaks.js';
import { checkResources } from './check-resources.js';
import { checkSourceFaults } from './check-source-faults.js';
import { describeError } from './error-rules.js';
import { AcceptanceKit } from './kit.js';
import { hideSecrets, searchableSecrets } from './secret-forms.js';
import type { SecretForm } from './secret-forms.js';
import { connectorForConfig } from '../plugins/for-config.js';
import { ACCEPTANCE_CHECKS, fail, skip } from './types.js';
import type {
  AcceptanceCheckName,
  AcceptanceCheckResult,
  AcceptanceOptions,
  AcceptanceReport,
  CheckOutcome,
} from './types.js';

type Check = (kit: AcceptanceKit) => CheckOutcome | Promise<CheckOutcome>;

const CHECKS: Record<AcceptanceCheckName, Check> = {
  definition: (kit) => checkDefinition(kit.connector),
  check: checkCredentials,
  extract: checkExtract,
  idempotent: checkIdempotent,
  'streams-once': checkStreamsOnce,
  cancels: checkCancels,
  'no-secret-leaks': checkLeaks,
  'source-faults': checkSourceFaults,
  incremental: checkIncremental,
  resources: checkResources,
};

/** The order the checks run in: no-secret-leaks last. */
const RUN_ORDER: readonly AcceptanceCheckName[] = [
  ...ACCEPTANCE_CHECKS.filter((c) => c !== 'no-secret-leaks'),
  'no-secret-leaks',
];

/** Whether `value` looks enough like a connector to run (the definition check says what is wrong). */
function runnable(value: Connector): boolean {
  const c = value as Partial<Record<string, unknown>> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c['extract'] === 'function' &&
    typeof (c['configSchema'] as { safeParse?: unknown } | undefined)?.safeParse === 'function'
  );
}

/** `value` with every string cleared of the secrets' values (JSON values only). */
function hideIn(value: unknown, forms: readonly SecretForm[]): unknown {
  if (typeof value === 'string') return hideSecrets(value, forms);
  if (Array.isArray(value)) return value.map((v) => hideIn(v, forms));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideIn(v, forms)]));
}

/**
 * The report when the connector of `options.config` cannot be made (`forConfig` refused the
 * config): the definition check fails with the reason, the others cannot run.
 */
function unmade(
  connector: Connector,
  error: unknown,
  selected: ReadonlySet<AcceptanceCheckName>,
  forms: readonly SecretForm[],
  options: AcceptanceOptions,
): AcceptanceReport {
  const reason = hideSecrets(`the connector of this config cannot be made: ${describeError(error)}`, forms);
  const checks = ACCEPTANCE_CHECKS.filter((name) => selected.has(name)).map((name): AcceptanceCheckResult =>
    name === 'definition'
      ? { name, ok: false, skipped: false, reason, ms: 0 }
      : { ...skip('the connector of this config cannot be made (see the definition check)'), name, ms: 0 },
  );
  for (const check of checks) options.onCheck?.(check);
  return {
    connector: { id: connector.id, version: connector.version, template: connector.template },
    checks,
  };
}

/**
 * Runs the acceptance checks on `given` and reports each; a connector with `forConfig` is checked
 * as the connector it makes of `options.config` (when it refuses the config, the definition check
 * fails with the reason). Never throws for what the connector does: a connector that throws, hangs or leaks fails the check that saw it. Throws
 * `INVALID_ARGUMENT` for a name in `only` that is not a check.
 *
 * @example
 * const report = await runAcceptanceChecks(connector, { config: { baseUrl }, secrets: { token } });
 * process.stdout.write(formatAcceptanceReport(report));
 * process.exitCode = report.checks.every((c) => c.ok) ? 0 : 1;
 */
export async function runAcceptanceChecks(
  given: Connector,
  options: AcceptanceOptions = {},
): Promise<AcceptanceReport> {
  const unknown = (options.only ?? []).filter(
    (name) => !(ACCEPTANCE_CHECKS as readonly string[]).includes(name),
  );
  if (unknown.length > 0)
    throw new OaaError(
      `unknown acceptance check${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `"${n}"`).join(', ')}: the checks are ${ACCEPTANCE_CHECKS.join(', ')}`,
      { code: 'INVALID_ARGUMENT', details: { unknown: [...unknown] } },
    );
  const selected = new Set<AcceptanceCheckName>(options.only ?? ACCEPTANCE_CHECKS);
  const forms = searchableSecrets(options.secrets ?? {}).forms;
  const results = new Map<AcceptanceCheckName, AcceptanceCheckResult>();
  // A connector whose definition depends on its config is checked as the connector of this config.
  let made: { connector: Connector } | { error: unknown };
  try {
    made = {
      connector: await connectorForConfig(given, options.config, {
        connectorId: options.connectorId,
        baseDir: options.baseDir,
      }),
    };
  } catch (error) {
    made = { error };
  }
  if ('error' in made) return unmade(given, made.error, selected, forms, options);
  const connector = made.connector;
  const canRun = runnable(connector);
  const kit = await AcceptanceKit.open(connector, options);
  try {
    for (const name of RUN_ORDER) {
      if (!selected.has(name)) continue;
      const started = performance.now();
      let outcome: CheckOutcome;
      if (!canRun && name !== 'definition') {
        outcome = skip('not a connector that can run (see the definition check)');
      } else {
        try {
          outcome = await CHECKS[name](kit);
        } catch (error) {
          kit.noteError(name, error);
          outcome = fail(`the check could not run: ${describeError(error)}`);
        }
      }
      const result: AcceptanceCheckResult = {
        name,
        ok: outcome.ok,
        skipped: outcome.skipped,
        reason: hideSecrets(outcome.reason, forms),
        ms: Math.round(performance.now() - started),
        ...(outcome.details === undefined
          ? {}
          : { details: hideIn(outcome.details, forms) as Record<string, unknown> }),
      };
      results.set(name, result);
      options.onCheck?.(result);
    }
  } finally {
    await kit.close();
  }
  return {
    connector: { id: connector.id, version: connector.version, template: connector.template },
    checks: ACCEPTANCE_CHECKS.filter((name) => results.has(name)).map((name) => results.get(name)!),
  };
}
