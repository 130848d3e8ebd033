/**
 * The keychain against a real Secret Service: gnome-keyring on a private D-Bus session, started by
 * the test itself. Needs the Debian packages dbus (or dbus-bin) and gnome-keyring, and the built
 * runner (the child process runs plain JavaScript from dist/).
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const script = resolve(here, '../../test-fixtures/keychain/roundtrip.js');
const dist = resolve(here, '../../dist/index.js');

function installed(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((c) => !installed(c));
const title =
  missing.length === 0
    ? 'OS keychain on a real Secret Service (gnome-keyring)'
    : `OS keychain: SKIPPED because ${missing.join(' and ')} is not installed (apt-get install dbus gnome-keyring)`;

describe.skipIf(missing.length > 0)(title, () => {
  it('saves, reads, resolves and deletes an API key and a keychain secret reference', async () => {
    expect(existsSync(dist), 'build the runner first: npx tsc -b packages/runner').toBe(true);
    const apiKey = `oaa_keychain_test_${randomBytes(8).toString('hex')}`;
    // A fresh HOME gives gnome-keyring a new login keyring, unlocked with the password piped in.
    const home = await mkdtemp(join(tmpdir(), 'oaa-keyring-'));
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: home, TEST_API_KEY: apiKey };
    const shell = `echo unlock-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "${process.execPath}" "${script}"`;
    let stdout: string;
    try {
      ({ stdout } = await promisify(execFile)('dbus-run-session', ['--', 'sh', '-c', shell], {
        env,
        timeout: 30_000,
      }));
    } finally {
      await rm(home, { recursive: true, force: true });
    }
    const out = JSON.parse(stdout);

    expect(out.before).toBeNull();
    expect(out.readBack).toBe(true);
    expect(out.resolved).toMatchObject({ apiKeySource: 'keychain', matches: true });
    expect(out.reference).toBe(true);
    expect(out).toMatchObject({ deleted: true, deletedAgain: false, after: null });
    expect(out.missing.json).toMatchObject({ code: 'CREDENTIALS_MISSING' });
    expect(out.missing.json.hints[0]).toContain('oaa auth login');
    expect(stdout).not.toContain(apiKey);
  });
});
