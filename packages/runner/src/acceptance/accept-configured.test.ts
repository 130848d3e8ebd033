/**
 * The acceptance kit on a connector of a config file (`oaa plugins test`): the plugin loaded and
 * its secrets resolved as a run does, the bound of its package.json, the source recorded by the
 * checks themselves and replayed with the source gone.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import type { LoadedConfig } from '../config/load-config.js';
import { readHar } from '../har/read-har.js';
import { acceptConfiguredConnector, connectorsOfPlugin } from '../run-configured.js';
import { FIXTURES } from '../private-test-helpers/harness.js';
import { startSource } from './fixtures/source-server.js';
import type { SourceServer } from './fixtures/source-server.js';
import { ACCEPTANCE_CHECKS } from './types.js';
import type { AcceptanceCheckResult, AcceptanceReport } from './types.js';

/** The kit's good connector without its check(), as a plugin (`fixtures/plugin`). */
const PLUGIN_DIR = fileURLToPath(new URL('./fixtures/plugin', import.meta.url));
const TOKEN = 'directory-token-0e93b7c4';
const secretSources = { env: { DIRECTORY_TOKEN: TOKEN } };

let dir: string;
let source: SourceServer;
let sourceOpen: boolean;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-accept-'));
  source = await startSource(TOKEN);
  sourceOpen = true;
});
afterEach(async () => {
  if (sourceOpen) await source.close();
  await rm(dir, { recursive: true, force: true });
});

async function config(connectors: Record<string, unknown>[]): Promise<LoadedConfig> {
  await writeFile(join(dir, 'oaa.config.json'), JSON.stringify({ connectors }));
  return loadConfig({ cwd: dir });
}

function entry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'directory',
    plugin: PLUGIN_DIR,
    provider: 'Directory',
    dataSource: 'Directory',
    config: { baseUrl: source.url },
    secrets: { token: 'env:DIRECTORY_TOKEN' },
    ...extra,
  };
}

function verdicts(report: AcceptanceReport): Record<string, string> {
  return Object.fromEntries(
    report.checks.map((c) => [c.name, c.skipped ? `SKIP: ${c.reason}` : c.ok ? 'PASS' : `FAIL: ${c.reason}`]),
  );
}

const ALL_PASS = Object.fromEntries(ACCEPTANCE_CHECKS.map((name) => [name, 'PASS']));

describe('acceptance checks of a configured connector', () => {
  it("passes the plugin's connector on every check, with the bound its package.json declares, reporting each check as it ends", async () => {
    const loaded = await config([entry()]);
    const seen: AcceptanceCheckResult[] = [];
    const accepted = await acceptConfiguredConnector({
      loaded,
      connectorId: 'directory',
      pluginDir: PLUGIN_DIR,
      secretSources,
      onCheck: (check) => seen.push(check),
    });
    expect(accepted).toMatchObject({ connectorId: 'directory', bounds: { peakRssMb: 256 } });
    expect(verdicts(accepted.report)).toEqual(ALL_PASS);
    const resources = accepted.report.checks.find((c) => c.name === 'resources')!;
    expect(resources.reason).toMatch(/\(bound 256 MB\)$/);
    // The secret search runs last, over what every other check left.
    expect(seen.map((c) => c.name)).toEqual([
      ...ACCEPTANCE_CHECKS.filter((c) => c !== 'no-secret-leaks'),
      'no-secret-leaks',
    ]);
    expect(JSON.stringify(accepted.report)).not.toContain(TOKEN);
  });

  it('records the requests of every check but those with a wrong token, and passes every check again from the recording with the source gone', async () => {
    const loaded = await config([entry()]);
    const har = join(dir, 'directory.har');
    const recorded = await acceptConfiguredConnector({
      loaded,
      connectorId: 'directory',
      secretSources,
      record: har,
    });
    expect(verdicts(recorded.report)).toEqual(ALL_PASS);
    // The kit's wrong token reached the source and was refused there...
    expect(recorded.report.checks.find((c) => c.name === 'check')!.reason).toContain(
      'a wrong "token" is refused with a credential error',
    );
    expect(await readFile(har, 'utf8')).not.toContain(TOKEN);
    const { log } = await readHar(har);
    // ...but the recording holds only answers to the given token, among them the incremental run's.
    expect(log.entries.map((e) => e.response.status)).toEqual(log.entries.map(() => 200));
    expect(log.entries.map((e) => new URL(e.request.url).pathname)).toEqual(
      expect.arrayContaining(['/assignments', '/users', '/users/changes']),
    );
    expect(log.comment).toMatch(
      /^acceptance checks of connector "directory" \(plugin good-directory 1\.0\.0\): succeeded \(10 passed, 0 failed, 0 skipped\)$/,
    );

    await source.close();
    sourceOpen = false;
    const replayed = await acceptConfiguredConnector({
      loaded,
      connectorId: 'directory',
      secretSources,
      replay: har,
    });
    expect(verdicts(replayed.report)).toEqual(ALL_PASS);
  });

  it('finds the connectors of a plugin directory, and refuses one whose plugin is another', async () => {
    const other = join(FIXTURES, 'app');
    const loaded = await config([
      entry(),
      entry({ id: 'app', plugin: other, dataSource: 'App', config: {}, secrets: {} }),
      entry({ id: 'directory-eu', dataSource: 'Directory EU' }),
    ]);
    expect(connectorsOfPlugin(loaded, PLUGIN_DIR)).toEqual(['directory', 'directory-eu']);
    expect(connectorsOfPlugin(loaded, other)).toEqual(['app']);
    await expect(
      acceptConfiguredConnector({ loaded, connectorId: 'app', pluginDir: PLUGIN_DIR, secretSources }),
    ).rejects.toMatchObject({
      code: 'CONNECTOR_NOT_FOUND',
      message: `connector "app" of ${loaded.path} runs the plugin ${other}, not the one in ${PLUGIN_DIR}`,
      hints: ['connectors of that plugin: directory, directory-eu'],
    });
    expect(() => connectorsOfPlugin(loaded, dir)).toThrow(
      expect.objectContaining({ code: 'PLUGIN_INVALID', message: `no package.json in ${dir}` }),
    );
  });

  it('resolves the secrets as a run does, naming the connector and the reference when one is missing', async () => {
    const loaded = await config([entry()]);
    await expect(
      acceptConfiguredConnector({ loaded, connectorId: 'directory', secretSources: { env: {} } }),
    ).rejects.toMatchObject({
      code: 'SECRET_MISSING',
      message: expect.stringMatching(/^connector "directory".*DIRECTORY_TOKEN/s),
    });
  });
});
