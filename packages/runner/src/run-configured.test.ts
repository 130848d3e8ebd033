import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkConfiguredConnector, runConfiguredConnectors } from './run-configured.js';
import { appEntry, fixture, startHarness } from './private-test-helpers/harness.js';
import type { Harness } from './private-test-helpers/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('running the connectors of a config file', () => {
  it('names the configured connectors when asked for an unknown one', async () => {
    await h.config([appEntry()]);
    await expect(h.run('nope')).rejects.toMatchObject({
      code: 'CONNECTOR_NOT_FOUND',
      hints: ['configured connectors: app'],
    });
  });

  it('refuses a plugin with the wrong apiVersion, naming the connector', async () => {
    await h.config([appEntry({}, { id: 'old', plugin: fixture('wrong-api') })]);
    await expect(h.run('old')).rejects.toMatchObject({
      code: 'PLUGIN_API_VERSION',
      message: expect.stringMatching(
        /^connector "old": plugin .*wrong-api was written for connector apiVersion 2/,
      ),
    });
  });

  it("checks the connector's config with the plugin's schema, by key path", async () => {
    await h.config([appEntry({ userCount: 'many', colour: 'red' })]);
    const error = await h.run('app').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect((error as Error).message).toContain(
      'connectors[0].config.userCount: must be a number, not a string',
    );
    expect((error as Error).message).toContain(
      'connectors[0].config.colour: unknown key; allowed here: userCount, revision',
    );
    expect(await h.pushCalls()).toEqual([]);
  });

  it('runs every connector, reporting each outcome, one failure not stopping the others', async () => {
    const loaded = await h.config([
      appEntry({ throwAfter: 0 }, { id: 'broken', dataSource: 'broken' }),
      appEntry({ userCount: 2 }),
    ]);
    const outcomes = await runConfiguredConnectors({ loaded, client: h.client() });
    expect(outcomes.map((o) => [o.connectorId, o.ok])).toEqual([
      ['broken', false],
      ['app', true],
    ]);
    expect(outcomes[0]?.ok === false && outcomes[0].error.code).toBe('EXTRACT_FAILED');
  });

  it("runs the connector's check with its secrets, and names the connector when it fails", async () => {
    const secretSources = { env: { FIXTURE_TOKEN: 'fixture-token-value' } };
    const entry = (revision: string) =>
      appEntry(
        { revision },
        {
          id: 'checked',
          dataSource: 'checked',
          plugin: fixture('app-with-secret'),
          secrets: { token: 'env:FIXTURE_TOKEN' },
        },
      );
    let loaded = await h.config([entry('1'), appEntry()]);
    expect(await checkConfiguredConnector({ loaded, connectorId: 'checked', secretSources })).toMatchObject({
      checked: true,
    });
    expect(await checkConfiguredConnector({ loaded, connectorId: 'app' })).toMatchObject({ checked: false });
    loaded = await h.config([entry('unreachable')]);
    await expect(
      checkConfiguredConnector({ loaded, connectorId: 'checked', secretSources }),
    ).rejects.toMatchObject({
      code: 'CHECK_FAILED',
      message:
        'connector "checked" (plugin fixture-app-with-secret): check failed: source at https://source.example is unreachable',
    });
    expect(await h.admin.calls.list()).toEqual([]);
  });
});
