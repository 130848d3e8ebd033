import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appEntry, fixture, startHarness } from '../private-test-helpers/harness.js';
import type { Harness } from '../private-test-helpers/harness.js';
import { resolveTarget } from './resolve-target.js';
import { rejection } from '../private-test-helpers/rejection.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const secretEntry = (secrets?: Record<string, string>) =>
  appEntry({}, { id: 'secret-app', plugin: fixture('app-with-secret'), ...(secrets ? { secrets } : {}) });

describe('secrets of a configured connector', () => {
  it('names a secret without a reference and where to add it', async () => {
    await h.config([secretEntry()]);
    const error = await rejection(h.run('secret-app', { secretSources: { env: {} } }));
    expect(error.code).toBe('SECRET_MISSING');
    expect(error.message).toBe(
      'connector "secret-app" needs the secret "token" (API token of the fixture source), but connectors[0].secrets.token is not set',
    );
    expect(error.hints[0]).toContain('add connectors[0].secrets.token: env:VARIABLE');
  });

  it('names a reference that resolves to nothing and how to set it', async () => {
    await h.config([secretEntry({ token: 'env:FIXTURE_TOKEN' })]);
    const error = await rejection(h.run('secret-app', { secretSources: { env: {} } }));
    expect(error.code).toBe('SECRET_MISSING');
    expect(error.message).toContain(
      'needs the secret "token" (API token of the fixture source): env:FIXTURE_TOKEN is not set',
    );
    expect(error.hints).toEqual([
      'set the environment variable FIXTURE_TOKEN (e.g. export FIXTURE_TOKEN=...)',
    ]);
    expect(await h.pushCalls()).toEqual([]);
  });

  it('refuses a reference to a secret the connector does not declare', async () => {
    await h.config([secretEntry({ token: 'env:FIXTURE_TOKEN', tokn: 'env:TYPO' })]);
    const error = await rejection(h.run('secret-app', { secretSources: { env: { FIXTURE_TOKEN: 'x' } } }));
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect(error.message).toContain(
      'connectors[0].secrets.tokn: connector "secret-app" has no secret named "tokn"; it declares: token',
    );
  });

  it('hands resolved secrets to the connector and keeps them and the API key out of logs and state', async () => {
    const lines: string[] = [];
    const { createLogger } = await import('../logger.js');
    const logger = createLogger({
      level: 'debug',
      destination: { write: (line: string) => void lines.push(line) },
    });
    await h.config([secretEntry({ token: 'env:FIXTURE_TOKEN' })]);
    const result = await h.run('secret-app', {
      logger,
      client: h.client({ logger }),
      secretSources: { env: { FIXTURE_TOKEN: 'fixture-token-value' } },
    });
    expect(result.status).toBe('pushed');
    logger.info(
      {
        apiKey: h.apiKey,
        secrets: { token: 'fixture-token-value' },
        headers: { authorization: `Bearer ${h.apiKey}` },
      },
      'probe',
    );
    const log = lines.join('');
    expect(log).toContain('"msg":"pushed"');
    expect(log).toContain('[REDACTED]');
    expect(log).not.toContain('fixture-token-value');
    expect(log).not.toContain(h.apiKey);
    const files =
      JSON.stringify(await h.state().read('secret-app')) +
      JSON.stringify(await h.state().readReport('secret-app'));
    expect(files).not.toContain('fixture-token-value');
    expect(files).not.toContain(h.apiKey);
  });
});

describe('resolveTarget', () => {
  const keychain = (store: Record<string, string>) => (service: string, account: string) =>
    Promise.resolve(store[`${service}/${account}`]);

  it('reports no target when no URL is configured anywhere', async () => {
    expect(await resolveTarget({ env: {}, keychain: keychain({}) })).toBeUndefined();
  });

  it('takes the flag first, then the environment, then the config reference, then the keychain', async () => {
    const store = { 'oaakit/https://t.example': 'from-keychain', 'vault/k': 'from-reference' };
    const env = { OAA_URL: 'https://t.example/', OAA_API_KEY: 'from-env' };
    const flag = await resolveTarget({
      flags: { url: 'https://t.example', apiKey: 'from-flag' },
      env,
      keychain: keychain(store),
    });
    expect(flag).toMatchObject({ url: 'https://t.example', urlSource: 'flag', apiKeySource: 'flag' });
    expect(flag?.apiKey).toBe('from-flag');
    expect((await resolveTarget({ env, keychain: keychain(store) }))?.apiKey).toBe('from-env');
    const target = { url: 'https://t.example', credential: 'keychain:vault/k' };
    expect(await resolveTarget({ env: {}, target, keychain: keychain(store) })).toMatchObject({
      apiKeySource: 'config',
      urlSource: 'config',
    });
    const fromKeychain = await resolveTarget({
      env: { OAA_URL: 'https://t.example/' },
      keychain: keychain(store),
    });
    expect(fromKeychain).toMatchObject({ apiKeySource: 'keychain', urlSource: 'env' });
    expect(fromKeychain?.apiKey).toBe('from-keychain');
    expect(JSON.stringify(fromKeychain)).not.toContain('from-keychain');
  });

  it('fails with CREDENTIALS_MISSING and the ways to provide a key', async () => {
    const error = await rejection(
      resolveTarget({ env: {}, target: { url: 'https://t.example' }, keychain: keychain({}) }),
    );
    expect(error.code).toBe('CREDENTIALS_MISSING');
    expect(error.message).toBe('no API key for https://t.example');
    expect(error.hints).toEqual([
      'run `oaa auth login` to store an API key for https://t.example in the OS keychain',
      'or log in with OAuth2: `oaa auth login --oauth --client-id <CLIENT_ID>`',
      'or set OAA_API_KEY',
    ]);
  });

  it('says when the keychain could not be read', async () => {
    const broken = () => Promise.reject(new Error('no Secret Service on this machine'));
    const error = await rejection(resolveTarget({ env: { OAA_URL: 'https://t.example' }, keychain: broken }));
    expect(error.code).toBe('CREDENTIALS_MISSING');
    expect(error.hints.at(-1)).toBe('the OS keychain could not be read: no Secret Service on this machine');
  });
});
