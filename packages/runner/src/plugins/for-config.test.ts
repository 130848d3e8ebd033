/**
 * A connector whose definition depends on its config (`forConfig`), as the REST connector's
 * depends on the manifest its config names: runs, checks and the acceptance kit use the connector
 * it makes, whose template and secrets are the made one's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAcceptanceChecks } from '../acceptance/run-acceptance.js';
import { checkConfiguredConnector } from '../run-configured.js';
import { fixture, startHarness } from '../private-test-helpers/harness.js';
import type { Harness } from '../private-test-helpers/harness.js';
import { loadPlugin } from './load-plugin.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const secretSources = { env: { HR_TOKEN: 'hr-token-value' } };

function entry(config: Record<string, unknown>, secrets: Record<string, string> = {}) {
  return {
    id: 'people',
    plugin: fixture('for-config'),
    provider: 'People',
    dataSource: 'people (main)',
    config,
    secrets,
  };
}

describe('a connector made for its config (forConfig)', () => {
  it('runs as the connector it makes: its template, and the secrets it declares', async () => {
    await h.config([entry({ flavour: 'people', secretName: 'staffToken' }, { staffToken: 'env:HR_TOKEN' })]);
    const result = await h.run('people', { secretSources });
    expect(result).toMatchObject({ status: 'pushed', template: 'hris', counts: { employees: 1 } });
    expect(result.connector).toEqual({ id: 'fixture-people', version: '1.0.0' });
    const [provider] = await h.client().providers.list().toArray();
    expect(provider).toMatchObject({ name: 'People', custom_template: 'hris' });
  });

  it("resolves the made connector's secrets: a missing one, or one it does not declare, is named", async () => {
    await h.config([entry({ flavour: 'people', secretName: 'staffToken' })]);
    await expect(h.run('people', { secretSources })).rejects.toMatchObject({
      code: 'SECRET_MISSING',
      message: expect.stringContaining('needs the secret "staffToken" (token of the fixture HR system)'),
    });
    await h.config([entry({ flavour: 'people' }, { staffToken: 'env:HR_TOKEN' })]);
    await expect(h.run('people', { secretSources })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('has no secret named "staffToken"; it declares: hrToken'),
    });
  });

  it('refuses a config forConfig refuses, with its message, hints and the config key path', async () => {
    await h.config([entry({ flavour: 'refused' })]);
    const error = await h.run('people', { secretSources }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CONFIG_INVALID',
      message:
        'connector "people" (plugin fixture-for-config): connectors[0].config cannot be used: flavour "refused" is not made here',
      hints: ['use flavour "people"'],
      details: { connectorId: 'people', causeCode: 'FLAVOUR_UNKNOWN' },
    });
    expect(await h.pushCalls()).toEqual([]);
  });

  it("checks the config against the generic connector's schema first", async () => {
    await h.config([entry({ flavor: 'people' })]);
    await expect(h.run('people')).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('connectors[0].config.flavour: required'),
    });
  });

  it('refuses a made connector that has forConfig itself', async () => {
    await h.config([entry({ flavour: 'nested' }, { hrToken: 'env:HR_TOKEN' })]);
    await expect(h.run('people', { secretSources })).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: expect.stringContaining('must not have forConfig itself'),
    });
  });

  it("runs the made connector's check", async () => {
    const loaded = await h.config([entry({ flavour: 'people' }, { hrToken: 'env:HR_TOKEN' })]);
    expect(await checkConfiguredConnector({ loaded, connectorId: 'people', secretSources })).toMatchObject({
      checked: true,
    });
    await expect(
      checkConfiguredConnector({ loaded, connectorId: 'people', secretSources: { env: { HR_TOKEN: 'x' } } }),
    ).rejects.toMatchObject({ code: 'CHECK_FAILED', message: expect.stringContaining('wrong token') });
  });

  it('gives the acceptance kit the made connector, and fails its definition check when the config is refused', async () => {
    const { connector } = await loadPlugin(fixture('for-config'), { baseDir: h.dir });
    const good = await runAcceptanceChecks(connector, {
      config: { flavour: 'people' },
      secrets: { hrToken: 'hr-token-value' },
      only: ['definition', 'extract'],
    });
    expect(good.connector).toEqual({ id: 'fixture-people', version: '1.0.0', template: 'hris' });
    expect(good.checks.map((c) => [c.name, c.ok, c.skipped])).toEqual([
      ['definition', true, false],
      ['extract', true, false],
    ]);
    const refused = await runAcceptanceChecks(connector, {
      config: { flavour: 'refused' },
      only: ['definition', 'extract'],
    });
    expect(refused.checks).toMatchObject([
      {
        name: 'definition',
        ok: false,
        reason: expect.stringContaining('flavour "refused" is not made here'),
      },
      { name: 'extract', ok: true, skipped: true },
    ]);
  });
});
