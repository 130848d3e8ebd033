/**
 * A connector's `ctx.logger.warn` calls land in the run's result (and its report), redacted as the
 * log redacts them, bounded, and still in the log.
 */
import assert from 'node:assert/strict';
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';
import type { DestinationStream } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { startHarness } from '../private-test-helpers/harness.js';
import type { Harness } from '../private-test-helpers/harness.js';
import { runConnector } from './run-connector.js';
import type { RunConnectorOptions, RunResult } from './run-types.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const SECRET = 'sekrit-api-key-4711';

/**
 * Warns about groups it read (a cycle it broke, with credentials in the details), then, while its
 * users stream, `extra` times more and once at their end, as a directory connector does.
 */
const connector = defineConnector({
  id: 'warns',
  version: '1.0.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'identity_provider',
  configSchema: z.object({ extra: z.number() }),
  secrets: [{ name: 'apiKey', description: 'the source API key' }],
  extract(ctx) {
    ctx.logger.info({ groups: 1 }, 'read the groups');
    ctx.logger.warn(
      {
        cycles: [['g-a', 'g-b']],
        password: 'hunter22',
        source: { token: 'abc', url: `https://src/?key=${ctx.secrets.apiKey}` },
      },
      'group nesting has cycles: the memberships that close them are left out',
    );
    ctx.logger.warn('a warning without details');
    ctx.logger.error({ errorLevel: true }, 'an error is not a warning');
    async function* users() {
      for (let i = 0; i < 3; i++) {
        await Promise.resolve();
        yield { name: `user${i}`, identity: `u-${i}` };
      }
      for (let i = 0; i < ctx.config.extra; i++) ctx.logger.warn({ i }, `extra warning ${i}`);
      ctx.logger.warn(
        { unresolved: 2, examples: ['cn=gone,dc=corp'] },
        'managers that are not users were left out',
      );
    }
    return {
      name: 'Corp',
      idp_type: 'corp_ldap',
      domains: [{ name: 'corp.example' }],
      users: users(),
      groups: [{ name: 'Group A', identity: 'g-a' }],
    };
  },
});

/** Runs the connector with a logger that writes warnings and above to `lines`. */
function run(extra: number, lines: string[], options: Partial<RunConnectorOptions> = {}): Promise<RunResult> {
  const destination: DestinationStream = { write: (line: string) => void lines.push(line) };
  return runConnector({
    connector,
    config: { extra },
    secrets: { apiKey: SECRET },
    provider: 'Warns',
    dataSource: 'warns main',
    ...(options.dryRun ? {} : { client: h.client() }),
    state: h.state(),
    logger: createLogger({ level: 'warn', destination }),
    ...options,
  });
}

describe("a connector's warnings", () => {
  it('are in the result and the report, redacted as in the log, which still has them', async () => {
    const lines: string[] = [];
    const result = await run(0, lines);
    assert(result.status === 'pushed');
    expect(result.connectorWarnings).toEqual([
      {
        message: 'group nesting has cycles: the memberships that close them are left out',
        details: {
          cycles: [['g-a', 'g-b']],
          password: '[REDACTED]',
          source: { token: '[REDACTED]', url: 'https://src/?key=[REDACTED]' },
        },
      },
      { message: 'a warning without details' },
      {
        message: 'managers that are not users were left out',
        details: { unresolved: 2, examples: ['cn=gone,dc=corp'] },
      },
    ]);
    expect(result.connectorWarningsOmitted).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain('hunter22');

    // The log lines are still written, with the log's redaction by key.
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const warned = logged.filter((l) => l.level === 40);
    expect(warned.map((l) => l.msg)).toEqual(result.connectorWarnings.map((w) => w.message));
    expect(warned[0]).toMatchObject({
      connector: 'warns',
      password: '[REDACTED]',
      source: { token: '[REDACTED]' },
    });
    expect(logged.some((l) => l.msg === 'an error is not a warning')).toBe(true);

    const report = (await h.state().readReport('warns')) as RunResult;
    expect(report.connectorWarnings).toEqual(result.connectorWarnings);
  });

  it('are listed up to 1,000 and counted past that, in a dry run too', async () => {
    const result = await run(1200, [], { dryRun: true });
    expect(result.status).toBe('dry-run');
    expect(result.connectorWarnings).toHaveLength(1000);
    expect(result.connectorWarnings[2]).toEqual({ message: 'extra warning 0', details: { i: 0 } });
    expect(result.connectorWarnings[999]).toEqual({ message: 'extra warning 997', details: { i: 997 } });
    // 2 before the users, 1,200 extra and 1 at their end: 1,203 in all.
    expect(result.connectorWarningsOmitted).toBe(203);
  });

  it('are an empty list when the connector warned of nothing', async () => {
    const quiet = defineConnector({
      ...connector,
      id: 'quiet',
      extract: () => ({
        name: 'Corp',
        idp_type: 'corp_ldap',
        domains: [{ name: 'corp.example' }],
        users: [{ name: 'user0' }],
      }),
    });
    const result = await run(0, [], { connector: quiet, dryRun: true });
    expect(result.connectorWarnings).toEqual([]);
    expect(result.connectorWarningsOmitted).toBeUndefined();
  });
});
