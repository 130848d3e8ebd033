/**
 * `oaa auth login --oauth` end to end against an emulator on port 0, with the
 * tokens in a real Secret Service (gnome-keyring on a private D-Bus session started by the test; the
 * Debian packages dbus and gnome-keyring). The printed authorization URL is followed with fetch; the
 * emulator's headless consent answers it.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '@oaakit/emulator/testing';
import { BIN, fixture, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaResult } from '../private-test-helpers/run-oaa.js';

const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter(
  (c) => spawnSync('sh', ['-c', `command -v ${c}`]).status !== 0,
);
const title =
  missing.length === 0
    ? 'oaa auth login --oauth with the OS keychain (gnome-keyring)'
    : `oaa auth login --oauth: SKIPPED because ${missing.join(' and ')} is not installed`;

let emu: TestEmulator;
let work: { dir: string; remove: () => Promise<void> };
let app: { client_id: string; client_secret: string };

beforeAll(async () => {
  emu = await startTestEmulator();
  work = await tempDir('oaa-cli-oauth-');
  await emu.admin.users.create({
    email: 'cli@example.com',
    given_name: 'Cli',
    family_name: 'User',
    password: 'cli password',
  });
  app = await emu.admin.oauthApps.create({
    client_name: 'oaa CLI',
    base_url: 'http://127.0.0.1',
    redirect_uris: ['http://127.0.0.1/callback'],
    allowed_scopes: ['profile', 'oaa:integrations'],
  });
});

afterAll(async () => {
  await emu?.close();
  await work?.remove();
});

type Step = OaaResult & {
  authorizationUrl?: string;
  callback?: string;
  forgedStatus?: number;
  callbackStatus?: number;
  callbackPage?: string;
  authorizeStatus?: number;
};

describe.skipIf(missing.length > 0)(title, () => {
  it('logs in through the loopback redirect, uses, refreshes and loses the login, never printing a secret', async () => {
    const env = {
      PATH: process.env['PATH'],
      HOME: work.dir,
      OAA_CONFIG_DIR: join(work.dir, 'config'),
      OAA_STATE_DIR: join(work.dir, 'state'),
      OAA_BIN: BIN,
      OAA_OAUTH_CLIENT_SECRET: app.client_secret,
      TEST_URL: emu.url,
      TEST_ADMIN_KEY: emu.adminKey,
      TEST_CLIENT_ID: app.client_id,
    };
    const shell = `echo unlock-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "${process.execPath}" "${fixture('oauth-session.js')}"`;
    const { stdout } = await promisify(execFile)('dbus-run-session', ['--', 'sh', '-c', shell], {
      env,
      timeout: 120_000,
      cwd: work.dir,
    });
    const out = JSON.parse(stdout) as Record<string, Step> & { 'token-calls': number[] };
    const step = (name: string): Step => out[name]!;

    // Cancelled consent: the login fails with the reason, nothing stored.
    expect(step('login-cancelled').code).toBe(5);
    expect(step('login-cancelled').stderr).toContain('access_denied');

    const login = step('login');
    const authorizationUrl = new URL(login.authorizationUrl!);
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${emu.url}/oauth/authorize`);
    const params = authorizationUrl.searchParams;
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toBeTruthy();
    expect(params.get('scope')).toBe('profile oaa:integrations');
    expect(params.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(login.authorizeStatus).toBe(302);
    expect(login.forgedStatus).toBe(400);
    expect(login.callbackStatus).toBe(200);
    expect(login.callbackPage).toContain('Logged in');
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toEqual({
      url: emu.url,
      stored: true,
      verified: true,
      kind: 'oauth',
      scope: 'profile oaa:integrations',
    });

    expect(JSON.parse(step('status').stdout)).toEqual({
      url: emu.url,
      urlSource: 'login',
      apiKeySource: 'oauth',
      check: 'accepted',
    });
    expect(step('list').code).toBe(0);
    expect(step('list').stderr).not.toContain('embedded emulator');
    expect(JSON.parse(step('list').stdout)).toEqual([]);

    // After expiry one refresh, whose rotated tokens the next command found in the keychain.
    expect(step('list-after-expiry').code).toBe(0);
    expect(step('list-again').code).toBe(0);
    expect(out['token-calls']).toEqual([200]);

    // The app revoked: the next command fails as a credential problem, telling how to log in again.
    expect(step('list-revoked').code).toBe(5);
    const revoked = JSON.parse(step('list-revoked').stdout) as {
      error: { code: string; message: string; hints: string[] };
    };
    expect(revoked.error.code).toBe('OAUTH_REFUSED');
    expect(revoked.error.message).toContain('the app is revoked');
    expect(revoked.error.hints[0]).toContain('oaa auth login --oauth');

    expect(JSON.parse(step('logout').stdout)).toEqual({ url: emu.url, removed: true });
    expect(stdout).not.toContain(app.client_secret);
  }, 180_000);
});
