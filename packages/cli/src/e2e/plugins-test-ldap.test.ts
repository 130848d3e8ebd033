/**
 * `oaa plugins test plugins/ldap`, run as the built binary from the repository root: the acceptance
 * kit on the directory connector against a real OpenLDAP server with the plugin's fixture
 * directory, bound as its least-privilege service account over StartTLS, the password handed over
 * as `env:LDAP_BIND_PASSWORD`.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AcceptanceReport } from '@oaakit/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadFixtureDirectory,
  type FixtureDirectory,
} from '../../../../plugins/ldap/src/private-test-helpers/fixture-directory.js';
import {
  startSlapd,
  type SlapdServer,
} from '../../../../plugins/ldap/src/private-test-helpers/slapd-server.js';
import { EXIT } from '../exit-codes.js';
import { CLI_ROOT, json, oaa, tempDir } from '../private-test-helpers/run-oaa.js';

const REPO = resolve(CLI_ROOT, '../..');

let server: SlapdServer;
let fixtures: FixtureDirectory;
let work: { dir: string; remove: () => Promise<void> };
let config: string;

beforeAll(async () => {
  server = await startSlapd();
  fixtures = await loadFixtureDirectory(server);
  work = await tempDir('oaa-e2e-plugins-test-ldap-');
  config = join(work.dir, 'acceptance.json');
  const connector = {
    id: 'directory',
    plugin: join(REPO, 'plugins/ldap'),
    provider: 'Directory',
    dataSource: 'OpenLDAP fixtures',
    config: { url: server.url, startTls: true, caFile: server.caFile, bindDn: fixtures.readerDn },
    secrets: { bindPassword: 'env:LDAP_BIND_PASSWORD' },
  };
  await writeFile(config, JSON.stringify({ connectors: [connector] }));
});

afterAll(async () => {
  await server?.stop();
  await work?.remove();
});

describe('oaa plugins test plugins/ldap', () => {
  it('passes every applicable check against the fixture directory, and the password appears nowhere', async () => {
    const password = fixtures.readerPassword;
    const res = await oaa(['plugins', 'test', 'plugins/ldap', '--config', config, '--json'], {
      cwd: REPO,
      env: { LDAP_BIND_PASSWORD: password },
    });
    expect(res.code, res.stderr).toBe(EXIT.OK);
    const report = json<AcceptanceReport>(res);
    expect(report.connector).toEqual({ id: 'ldap', version: '0.1.0', template: 'identity_provider' });
    const result = (c: AcceptanceReport['checks'][number]) => (!c.ok ? 'FAIL' : c.skipped ? 'SKIP' : 'PASS');
    // A source that is not HTTP has no faults to inject, and this connector keeps no state: those
    // checks are skipped with the reason, the others run and pass.
    expect(Object.fromEntries(report.checks.map((c) => [c.name, result(c)]))).toEqual({
      definition: 'PASS',
      check: 'PASS',
      extract: 'PASS',
      idempotent: 'PASS',
      'streams-once': 'PASS',
      cancels: 'PASS',
      'no-secret-leaks': 'PASS',
      'source-faults': 'SKIP',
      incremental: 'SKIP',
      resources: 'PASS',
    });
    // Every generated staff member is a user of the payload, beside the named people of the fixture.
    const counts = report.checks.find((c) => c.name === 'extract')?.details?.counts as Record<string, number>;
    expect(counts.users).toBeGreaterThan(fixtures.staff.length);
    expect(counts.groups).toBeGreaterThan(0);
    expect(res.stdout + res.stderr).not.toContain(password);
  });
});
