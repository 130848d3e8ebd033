/**
 * `oaa auth login|status|logout` against a real Secret Service: gnome-keyring on a private D-Bus
 * session started by the test (Debian packages dbus and gnome-keyring), and an emulator on port 0.
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '@oaakit/client';
import { startEmulator } from '@oaakit/emulator';
import type { RunningEmulator } from '@oaakit/emulator';
import { BIN, fixture, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaResult } from '../private-test-helpers/run-oaa.js';

const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter(
  (c) => spawnSync('sh', ['-c', `command -v ${c}`]).status !== 0,
);
const title =
  missing.length === 0
    ? 'oaa auth with the OS keychain (gnome-keyring)'
    : `oaa auth: SKIPPED because ${missing.join(' and ')} is not installed`;

const apiKey = `oaa_cli_auth_${randomBytes(16).toString('hex')}`;
let emulator: RunningEmulator;
let work: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [{ key: apiKey, role: 'admin' }] });
  work = await tempDir('oaa-cli-auth-');
});

afterAll(async () => {
  await emulator.close();
  await work.remove();
});

describe.skipIf(missing.length > 0)(title, () => {
  it('logs in from stdin, uses, checks and removes the key, never printing it', async () => {
    // A fresh HOME gives gnome-keyring a new login keyring, unlocked with the password piped in.
    const env = {
      PATH: process.env['PATH'],
      HOME: work.dir,
      OAA_CONFIG_DIR: join(work.dir, 'config'),
      OAA_STATE_DIR: join(work.dir, 'state'),
      OAA_BIN: BIN,
      TEST_URL: emulator.url,
      TEST_API_KEY: apiKey,
    };
    const shell = `echo unlock-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "${process.execPath}" "${fixture('auth-session.js')}"`;
    const { stdout } = await promisify(execFile)('dbus-run-session', ['--', 'sh', '-c', shell], {
      env,
      timeout: 60_000,
      cwd: work.dir,
    });
    const out = JSON.parse(stdout) as Record<string, OaaResult>;
    const step = (name: string): OaaResult => out[name]!;

    expect(step('status-before')).toMatchObject({ code: 0 });
    expect(JSON.parse(step('status-before').stdout)).toMatchObject({ url: null });

    expect(step('login-wrong-key').code).toBe(5);
    expect(step('login-wrong-key').stderr).toContain(
      `Error: the service at ${emulator.url} refused the API key`,
    );

    expect(step('login').code).toBe(0);
    expect(step('login').stdout).toContain(
      `Logged in to ${emulator.url}; the API key is in the OS keychain (the service accepted it).`,
    );

    expect(JSON.parse(step('status').stdout)).toEqual({
      url: emulator.url,
      urlSource: 'login',
      apiKeySource: 'keychain',
      check: 'accepted',
    });

    expect(step('list').code).toBe(0);
    expect(step('list').stderr).not.toContain('embedded emulator');
    expect(JSON.parse(step('list').stdout)).toEqual([] satisfies Provider[]);

    expect(JSON.parse(step('logout').stdout)).toEqual({ url: emulator.url, removed: true });
    expect(step('status-after').stdout).toContain('Not logged in: commands use the embedded emulator.');
    expect(step('list-after').stderr).toContain('Using the embedded emulator');

    expect(stdout).not.toContain(apiKey);
  });
});
