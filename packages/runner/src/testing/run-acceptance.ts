/**
 * The acceptance kit in a plugin's own vitest suite: one test per check. vitest is an optional
 * peer dependency of `@oaakit/runner`, imported when `runAcceptance` is called, so nothing else of
 * the package needs it.
 */
import type { Connector } from '@oaakit/core';
import { formatAcceptanceReport } from '../acceptance/format.js';
import { runAcceptanceChecks } from '../acceptance/run-acceptance.js';
import { ACCEPTANCE_CHECKS } from '../acceptance/types.js';
import type { AcceptanceOptions, AcceptanceReport } from '../acceptance/types.js';

/** Options of {@link runAcceptance}. */
export interface RunAcceptanceOptions extends AcceptanceOptions {
  /** Timeout of each test; default 10 minutes (the first test waits for every check). */
  testTimeoutMs?: number;
  /** Writes the report's table to stdout when the checks have run; default false. */
  print?: boolean;
}

/** The vitest functions `runAcceptance` uses. */
interface TestApi {
  describe: (name: string, body: () => void) => void;
  it: (
    name: string,
    body: (ctx: {
      skip(note?: string): never;
      annotate?(message: string): Promise<unknown>;
    }) => Promise<void>,
    timeout?: number,
  ) => void;
}

async function loadVitest(): Promise<TestApi> {
  try {
    return await import('vitest');
  } catch (cause) {
    throw new Error(
      'runAcceptance registers vitest tests: add vitest to the dev dependencies of the plugin',
      {
        cause,
      },
    );
  }
}

/**
 * Registers one vitest test per acceptance check (in a `describe` named after the connector). The
 * checks run once, when the first test starts; each test then passes, fails with the check's
 * reason, or is skipped with it. `options` may be a function, called then: for a source the suite
 * starts in `beforeAll`. Call it at the top level of a test file.
 *
 * @example
 * // connector.acceptance.test.ts
 * import { runAcceptance } from '@oaakit/runner/testing';
 * import connector from './index.js';
 * await runAcceptance(connector, () => ({ config: { baseUrl: source.url }, secrets: { token: 'test-token' } }));
 */
export async function runAcceptance(
  connector: Connector,
  options: RunAcceptanceOptions | (() => RunAcceptanceOptions | Promise<RunAcceptanceOptions>),
): Promise<void> {
  const { describe, it } = await loadVitest();
  const only = typeof options === 'function' ? undefined : options.only;
  const names = ACCEPTANCE_CHECKS.filter((name) => only === undefined || only.includes(name));
  const timeout = (typeof options === 'function' ? undefined : options.testTimeoutMs) ?? 10 * 60_000;
  let report: Promise<AcceptanceReport> | undefined;
  const checks = (): Promise<AcceptanceReport> =>
    (report ??= (async () => {
      const resolved = typeof options === 'function' ? await options() : options;
      const done = await runAcceptanceChecks(connector, resolved);
      if (resolved.print === true) process.stdout.write(formatAcceptanceReport(done));
      return done;
    })());
  describe(`acceptance of ${connector.id} ${connector.version}`, () => {
    for (const name of names) {
      it(
        name,
        async (ctx) => {
          const check = (await checks()).checks.find((c) => c.name === name);
          if (check === undefined) return ctx.skip('not selected (only)');
          if (check.skipped) return ctx.skip(check.reason);
          if (!check.ok) throw new Error(`${name}: ${check.reason}`);
          await ctx.annotate?.(check.reason);
        },
        timeout,
      );
    }
  });
}
