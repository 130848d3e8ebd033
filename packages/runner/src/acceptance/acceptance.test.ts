import { OaaError } from '@oaakit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAcceptanceReport } from './format.js';
import { runAcceptanceChecks } from './run-acceptance.js';
import { ACCEPTANCE_CHECKS } from './types.js';
import type { AcceptanceCheckName, AcceptanceOptions, AcceptanceReport } from './types.js';
import { broken, good, HOARD_MB } from './fixtures/connectors.js';
import { startSource } from './fixtures/source-server.js';
import type { SourceServer } from './fixtures/source-server.js';

const TOKEN = 'directory-token-7d1f3a9b';
let source: SourceServer;

beforeAll(async () => {
  source = await startSource(TOKEN);
});
afterAll(() => source.close());

function options(extra: AcceptanceOptions = {}): AcceptanceOptions {
  return { config: { baseUrl: source.url }, secrets: { token: TOKEN }, ...extra };
}

function verdicts(report: AcceptanceReport): Record<string, string> {
  return Object.fromEntries(
    report.checks.map((c) => [c.name, c.skipped ? 'SKIP' : c.ok ? 'PASS' : `FAIL: ${c.reason}`]),
  );
}

function reasonOf(report: AcceptanceReport, name: AcceptanceCheckName): string {
  return report.checks.find((c) => c.name === name)!.reason;
}

describe('the acceptance kit', () => {
  it('passes a good connector on every check and reports its figures', async () => {
    const logs: string[] = [];
    const report = await runAcceptanceChecks(
      good,
      options({ bounds: { peakRssMb: 256 }, log: (l) => logs.push(l) }),
    );
    expect(report.connector).toEqual({ id: 'good-directory', version: '1.0.0', template: 'application' });
    expect(report.checks.map((c) => c.name)).toEqual([...ACCEPTANCE_CHECKS]);
    expect(verdicts(report)).toEqual(Object.fromEntries(ACCEPTANCE_CHECKS.map((name) => [name, 'PASS'])));
    const extract = report.checks.find((c) => c.name === 'extract')!;
    expect(extract.details).toMatchObject({
      counts: { local_users: 5, local_roles: 2, permissions: 2, identity_to_permissions: 5 },
      warnings: [],
      requests: 4,
      streamedItems: 5,
    });
    expect(reasonOf(report, 'streams-once')).toMatch(/1 streamed collection, each read once/);
    expect(reasonOf(report, 'incremental')).toMatch(/read 2 source requests \(the first run 4\)/);
    expect(reasonOf(report, 'cancels')).toMatch(
      /aborted at a ctx.http request; stopped with the cancelled outcome/,
    );
    const resources = report.checks.find((c) => c.name === 'resources')!;
    expect(resources.details?.['peakRssMb']).toEqual(expect.any(Number));
    expect(logs.some((l) => l.includes('"users read"'))).toBe(true);
    expect(JSON.stringify(report)).not.toContain(TOKEN);

    const table = formatAcceptanceReport(report);
    expect(table).toMatch(/^connector good-directory 1\.0\.0 \(application\)/);
    expect(table).toMatch(/^CHECK +RESULT +WHY +TIME$/m);
    for (const name of ACCEPTANCE_CHECKS) expect(table).toMatch(new RegExp(`^${name} +PASS `, 'm'));
    expect(table).toMatch(/^ {2}local_users: 5$/m);
    expect(table).not.toMatch(/local_groups/);
    expect(table).toMatch(/all applicable checks passed \(10 passed, 0 skipped\)/);
  });

  it('runs only the checks asked for, and refuses a name that is not a check', async () => {
    const report = await runAcceptanceChecks(good, options({ only: ['idempotent', 'definition'] }));
    expect(verdicts(report)).toEqual({ definition: 'PASS', idempotent: 'PASS' });
    await expect(
      runAcceptanceChecks(good, options({ only: ['extract', 'leaks' as AcceptanceCheckName] })),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('unknown acceptance check "leaks": the checks are definition, check,'),
    });
  });

  it('refuses a wrong credential itself in front of a recorded source, which cannot', async () => {
    const recording = await startSource(TOKEN, { checksToken: false });
    try {
      const given = {
        config: { baseUrl: recording.url },
        secrets: { token: TOKEN },
        only: ['check'] as const,
      };
      const live = await runAcceptanceChecks(good, given);
      expect(reasonOf(live, 'check')).toBe('with a wrong value of secret "token", check() passed');
      const recorded = await runAcceptanceChecks(good, { ...given, recorded: true });
      expect(verdicts(recorded)).toEqual({ check: 'PASS' });
    } finally {
      await recording.close();
    }
  });

  it('skips the incremental check when the recording has no answer for the run with the saved state', async () => {
    const unrecorded = (path: string) =>
      new OaaError<string>(`GET ${source.url}${path} is not in the recording`, { code: 'REPLAY_UNMATCHED' });
    const recording: typeof fetch = (input, init) => {
      const path = new URL(input instanceof Request ? input.url : input).pathname;
      return path === '/users/changes' ? Promise.reject(unrecorded(path)) : fetch(input, init);
    };
    const report = await runAcceptanceChecks(good, options({ fetch: recording, only: ['incremental'] }));
    const incremental = report.checks[0]!;
    expect(incremental).toMatchObject({ name: 'incremental', ok: true, skipped: true });
    expect(incremental.reason).toMatch(
      /^the recording has no answer for a request of the run with the saved state \(EXTRACT_FAILED: .*\/users\/changes is not in the recording\)/,
    );
  });

  const expected: Record<AcceptanceCheckName, RegExp> = {
    definition: /config field without a description .*: config\.pageSize/,
    check:
      /with a wrong value of secret "token", check\(\) failed with CHECK_FAILED: .* \(from a raw TypeError\)/,
    extract: /applications\[0\]\.local_users\[0\]\.custom_properties\.department/,
    idempotent: /two extracts of the unchanged source differ \(local_users: 5 added, 5 removed\)/,
    'streams-once': /applications\[0\]\.local_users was read 2 times \(a one-shot iterable/,
    cancels: /aborted at a ctx\.http request; did not stop within 5 s/,
    'no-secret-leaks': /secret "token" in the payload at applications\[0\]\.custom_properties\.api_token/,
    'source-faults':
      /answering 429 \(Retry-After: 1\), then 500, then dropping the connection, the run failed/,
    incremental: /read as much as the first \(4 source requests, the first 4\)/,
    resources: /RSS grew by \d+(\.\d)? MB during extract and read \(bound 16 MB\)/,
  };

  for (const name of ACCEPTANCE_CHECKS) {
    it(`catches the connector broken for ${name}, and only there`, async () => {
      const connector = broken[name];
      const bounds = name === 'resources' ? { bounds: { peakRssMb: 16 } } : {};
      const report = await runAcceptanceChecks(connector, options(bounds));
      const failed = report.checks.filter((c) => !c.ok);
      expect(
        failed.map((c) => c.name),
        JSON.stringify(verdicts(report), null, 2),
      ).toEqual([name]);
      expect(failed[0]!.reason).toMatch(expected[name]);
      expect(JSON.stringify(report)).not.toContain(TOKEN);
      if (name === 'resources')
        // Most of what it keeps shows in the figure (RSS moves by pages, not bytes).
        expect(report.checks.find((c) => c.name === 'resources')!.details?.['peakRssMb']).toBeGreaterThan(
          HOARD_MB / 2,
        );
    });
  }
});
