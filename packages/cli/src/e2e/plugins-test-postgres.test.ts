/**
 * `oaa plugins test plugins/postgres`, run as the built binary from the repository root: the
 * acceptance kit on the PostgreSQL connector against a real PostgreSQL server with the plugin's
 * fixture cluster, signed in as its read-only role, the password handed over as `env:PG_PASSWORD`.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AcceptanceReport } from '@oaakit/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadFixtures,
  READER_ROLE,
  type LoadedFixtures,
} from '../../../../plugins/postgres/src/private-test-helpers/fixtures.js';
import {
  createTemplate,
  startPgServer,
  type PgServer,
  type PgTemplate,
} from '../../../../plugins/postgres/src/testing/index.js';
import { EXIT } from '../exit-codes.js';
import { CLI_ROOT, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

const REPO = resolve(CLI_ROOT, '../..');

let template: PgTemplate;
let server: PgServer;
let fixtures: LoadedFixtures;
let work: { dir: string; remove: () => Promise<void> };
let config: string;

beforeAll(async () => {
  template = await createTemplate();
  server = await startPgServer(template);
  fixtures = await loadFixtures(server);
  work = await tempDir('oaa-e2e-plugins-test-postgres-');
  config = join(work.dir, 'acceptance.json');
  const connector = {
    id: 'postgres',
    plugin: join(REPO, 'plugins/postgres'),
    provider: 'PostgreSQL',
    dataSource: 'PostgreSQL fixtures',
    config: {
      host: server.host,
      port: server.port,
      user: READER_ROLE,
      databases: fixtures.databases,
      ssl: 'disable',
    },
    secrets: { password: 'env:PG_PASSWORD' },
  };
  await writeFile(config, JSON.stringify({ connectors: [connector] }));
});

afterAll(async () => {
  await server?.stop();
  await template?.remove();
  await work?.remove();
});

describe('oaa plugins test plugins/postgres', () => {
  it('passes every applicable check against the fixture cluster, and the password appears nowhere', async () => {
    const password = fixtures.passwords[READER_ROLE]!;
    const res = await oaa(['plugins', 'test', 'plugins/postgres', '--config', config, '--json'], {
      cwd: REPO,
      env: { PG_PASSWORD: password },
    });
    expect(res.code, res.stderr).toBe(EXIT.OK);
    const report = json<AcceptanceReport>(res);
    expect(report.connector).toEqual({ id: 'postgres', version: '0.1.0', template: 'application' });
    const result = (c: AcceptanceReport['checks'][number]) => (!c.ok ? 'FAIL' : c.skipped ? 'SKIP' : 'PASS');
    // A source that is not HTTP has no recorded faults to inject, and this connector keeps no state:
    // those checks are skipped with the reason, the others run and pass.
    expect(Object.fromEntries(report.checks.map((c) => [c.name, result(c)]))).toEqual({
      definition: 'PASS',
      check: 'PASS',
      extract: 'PASS',
      idempotent: 'PASS',
      'streams-once': 'SKIP',
      cancels: 'PASS',
      'no-secret-leaks': 'PASS',
      'source-faults': 'SKIP',
      incremental: 'SKIP',
      resources: 'PASS',
    });
    expect(report.checks.find((c) => c.name === 'extract')?.details).toMatchObject({
      counts: expect.objectContaining({ local_users: expect.any(Number) }),
    });
    expect(res.stdout + res.stderr).not.toContain(password);
  });
});
