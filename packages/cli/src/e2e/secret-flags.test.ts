/**
 * The flags that carry a secret: `--api-key` of the service commands, `--api-key` of `oaa emulator
 * start` and `--queue` of the fleet commands (when its URL has a password). Every user of a host can
 * read a command line (`ps`), so each flag has a file form (`--NAME-file PATH`) and an environment
 * variable, taken silently; a secret typed on the command line still works, with a warning on stderr
 * that names the flag and the safer forms but never the secret, and never in the `--json` output.
 * The built binary against an emulator and a password-protected Redis, both started by the test.
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '@oaakit/client';
import { startTestEmulator } from '@oaakit/emulator/testing';
import type { TestEmulator } from '@oaakit/emulator/testing';
import { startTestRedis } from '@oaakit/fleet/testing';
import type { TestRedis } from '@oaakit/fleet/testing';
import type { ErrorJson } from '../output/render-error.js';
import { killAll, startFleetProcess } from '../private-test-helpers/fleet-processes.js';
import type { FleetProcess } from '../private-test-helpers/fleet-processes.js';
import { fixture, json, oaa, spawnOaa, tempDir } from '../private-test-helpers/run-oaa.js';
import type { OaaOptions, OaaResult } from '../private-test-helpers/run-oaa.js';

/** Each test starts the binary several times, a few seconds each on a loaded 2-core machine. */
const CLI_TIMEOUT = 180_000;
const REDIS_PASSWORD = 'queue-pw-7d2e9a41';

let emulator: TestEmulator;
let redis: TestRedis;
let work: { dir: string; remove: () => Promise<void> };
const processes: FleetProcess[] = [];

beforeAll(async () => {
  [emulator, redis, work] = await Promise.all([
    startTestEmulator(),
    startTestRedis({ password: REDIS_PASSWORD }),
    tempDir('oaa-cli-secret-flags-'),
  ]);
});

afterEach(async () => {
  await killAll(processes);
});

afterAll(async () => {
  await Promise.all([emulator.close(), redis.stop(), work.remove()]);
});

/** `oaa ...args` in the test's directory. */
function run(args: string[], env: OaaOptions['env'] = {}): Promise<OaaResult> {
  return oaa(args, { cwd: work.dir, env });
}

/** Writes a file of the test's directory and returns its path. */
async function file(name: string, text: string): Promise<string> {
  const path = join(work.dir, name);
  await writeFile(path, text, { mode: 0o600 });
  return path;
}

/** Asserts that `res` printed no warning and exited 0. */
function quietSuccess(res: OaaResult): void {
  expect(res.code, res.stderr).toBe(0);
  expect(res.stderr).not.toMatch(/^warning:/m);
}

function errorOf(res: OaaResult): ErrorJson {
  return json<{ error: ErrorJson }>(res).error;
}

describe('--api-key of the service commands', { timeout: CLI_TIMEOUT }, () => {
  it('on the command line: works, with a warning on stderr that does not show the key, outside the --json output', async () => {
    const res = await run([
      'providers',
      'list',
      '--url',
      emulator.url,
      '--api-key',
      emulator.apiKey,
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(json<Provider[]>(res)).toEqual([]);
    expect(res.stderr).toMatch(
      /^warning: --api-key puts the API key on the command line, where every user of this host can read it \(ps\) and shell history keeps it; use --api-key-file PATH or OAA_API_KEY instead$/m,
    );
    expect(res.stdout + res.stderr).not.toContain(emulator.apiKey);
  });

  it('from --api-key-file or OAA_API_KEY: works without a warning (the file over the variable); --help names both', async () => {
    const keyFile = await file('api-key', `${emulator.apiKey}\n`);
    quietSuccess(await run(['providers', 'list', '--url', emulator.url, '--api-key-file', keyFile]));
    quietSuccess(await run(['providers', 'list'], emulator.env));
    const fileOverEnv = await run(['providers', 'list', '--api-key-file', keyFile, '--json'], {
      OAA_URL: emulator.url,
      OAA_API_KEY: 'oaa_not_a_key_of_this_emulator',
    });
    quietSuccess(fileOverEnv);
    expect(json<Provider[]>(fileOverEnv)).toEqual([]);

    const help = await run(['providers', 'list', '--help']);
    expect(help.stdout).toMatch(/--api-key=<value>\s+\[env: OAA_API_KEY\]/);
    expect(help.stdout).toMatch(/--api-key-file=PATH\s+file holding the API key/);
  });

  it('a key in --api-key-file that the service refuses: the hint names the file', async () => {
    const keyFile = await file('refused-key', 'oaa_not_a_key_of_this_emulator\n');
    const res = await run(['providers', 'list', '--url', emulator.url, '--api-key-file', keyFile, '--json']);
    expect(res.code).toBe(5);
    expect(errorOf(res).hints[0]).toBe(
      'the key in the file of --api-key-file was refused: it is wrong, expired or revoked; write a current key into that file',
    );
  });

  it('a missing, unreadable or empty --api-key-file, or both forms at once: exit 64 naming the flag and the path', async () => {
    const missing = join(work.dir, 'no-such-key');
    const gone = await run(['providers', 'list', '--url', emulator.url, '--api-key-file', missing]);
    expect(gone.code).toBe(64);
    expect(gone.stderr).toContain(`Error: --api-key-file: cannot read ${missing}: no such file\n`);

    const directory = await run([
      'providers',
      'list',
      '--url',
      emulator.url,
      '--api-key-file',
      work.dir,
      '--json',
    ]);
    expect(directory.code).toBe(64);
    expect(errorOf(directory)).toMatchObject({
      code: 'FILE_UNREADABLE',
      message: `--api-key-file: cannot read ${work.dir}: it is a directory`,
      details: { flag: '--api-key-file', path: work.dir },
    });

    const empty = await file('empty-key', '\n');
    const blank = await run(['providers', 'list', '--url', emulator.url, '--api-key-file', empty]);
    expect(blank.code).toBe(64);
    expect(blank.stderr).toContain(`Error: --api-key-file: ${empty} is empty\n`);

    const keyFile = await file('api-key', `${emulator.apiKey}\n`);
    const both = await run([
      'providers',
      'list',
      '--url',
      emulator.url,
      '--api-key',
      emulator.apiKey,
      '--api-key-file',
      keyFile,
    ]);
    expect(both.code).toBe(64);
    expect(both.stderr).toMatch(/^Error: give --api-key or --api-key-file, not both$/m);
    expect(both.stdout + both.stderr).not.toContain(emulator.apiKey);
  });
});

describe('--api-key of oaa emulator start', { timeout: CLI_TIMEOUT }, () => {
  /** Starts `oaa emulator start --json ...args`; returns its URL, its start line and how to stop it. */
  async function startEmulator(args: string[], env: OaaOptions['env'] = {}) {
    const child = spawnOaa(['emulator', 'start', '--json', ...args], { cwd: work.dir, env });
    // `close`, not `exit`: all of stderr has been read by then.
    const closed = once(child, 'close') as Promise<[number | null]>;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [line] = (await Promise.race([
      once(createInterface({ input: child.stdout }), 'line'),
      closed.then(() => Promise.reject(new Error(`exited early: ${stderr}`))),
    ])) as [string];
    const started = JSON.parse(line) as { url: string; adminKey: string | null };
    return {
      started,
      stop: async () => {
        child.kill('SIGTERM');
        const [code] = await closed;
        return { code, stderr };
      },
    };
  }

  async function answers(url: string, key: string): Promise<number> {
    const res = await fetch(`${url}/api/v1/providers/custom`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return res.status;
  }

  it('on the command line: the key is accepted, with a warning on stderr that does not show it', async () => {
    const key = 'local-admin-key-on-argv-5b1c';
    const emu = await startEmulator(['--api-key', key]);
    expect(emu.started.adminKey).toBeNull();
    expect(await answers(emu.started.url, key)).toBe(200);
    const { code, stderr } = await emu.stop();
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^warning: --api-key puts an admin API key on the command line, where every user of this host can read it \(ps\) and shell history keeps it; use --api-key-file PATH or OAA_EMULATOR_API_KEY instead$/m,
    );
    expect(stderr).not.toContain(key);
  });

  it('from --api-key-file (one key per line) or OAA_EMULATOR_API_KEY: each key is accepted, none generated, no warning', async () => {
    const keys = ['local-admin-key-file-1', 'local-admin-key-file-2'];
    const keyFile = await file('emulator-keys', `${keys[0]}\n\n${keys[1]}\n`);
    const fromFile = await startEmulator(['--api-key-file', keyFile]);
    expect(fromFile.started.adminKey).toBeNull();
    for (const key of keys) expect(await answers(fromFile.started.url, key)).toBe(200);
    expect(await answers(fromFile.started.url, 'local-admin-key-other')).toBe(401);
    const fileRun = await fromFile.stop();
    expect(fileRun.code).toBe(0);
    expect(fileRun.stderr).not.toMatch(/^warning:/m);

    const envKey = 'local-admin-key-from-env';
    const fromEnv = await startEmulator([], { OAA_EMULATOR_API_KEY: envKey });
    expect(fromEnv.started.adminKey).toBeNull();
    expect(await answers(fromEnv.started.url, envKey)).toBe(200);
    const envRun = await fromEnv.stop();
    expect(envRun.code).toBe(0);
    expect(envRun.stderr).not.toMatch(/^warning:/m);
  });

  it('a missing --api-key-file: exit 64 naming the flag and the path', async () => {
    const missing = join(work.dir, 'no-such-emulator-keys');
    const res = await run(['emulator', 'start', '--api-key-file', missing]);
    expect(res.code).toBe(64);
    expect(res.stderr).toContain(`Error: --api-key-file: cannot read ${missing}: no such file\n`);
  });
});

describe(
  '--queue of the fleet commands, with the Redis password in the URL',
  { timeout: CLI_TIMEOUT },
  () => {
    /** The test Redis's URL with its password in it. */
    function urlWithPassword(): string {
      return redis.url.replace('redis://', `redis://:${REDIS_PASSWORD}@`);
    }

    async function writeConfig(): Promise<void> {
      const connector = {
        id: 'yearly',
        plugin: fixture('fleet/counter'),
        provider: 'Counter',
        dataSource: 'yearly',
        schedule: '0 0 0 1 1 *',
      };
      await writeFile(join(work.dir, 'oaa.config.json'), JSON.stringify({ connectors: [connector] }));
    }

    it('on the command line: works, with a warning that the URL holds a password, which is not shown; no warning without one', async () => {
      const res = await run(['jobs', 'stats', '--queue', urlWithPassword(), '--json']);
      expect(res.code, res.stderr).toBe(0);
      // The queue is shown as the URL without its password.
      expect(json<{ queue: string; schedules: string[] }>(res)).toMatchObject({
        queue: redis.url,
        schedules: [],
      });
      expect(res.stderr).toMatch(
        /^warning: --queue puts a password \(in the URL\) on the command line, where every user of this host can read it \(ps\) and shell history keeps it; use --queue-file PATH, OAA_QUEUE_URL or a URL without the password and OAA_REDIS_PASSWORD instead$/m,
      );
      expect(res.stdout + res.stderr).not.toContain(REDIS_PASSWORD);

      const withoutPassword = await run(['jobs', 'stats', '--queue', redis.url, '--json'], {
        OAA_REDIS_PASSWORD: REDIS_PASSWORD,
      });
      quietSuccess(withoutPassword);
      expect(json<{ queue: string }>(withoutPassword).queue).toBe(redis.url);
      // The Redis really wants the password.
      const refused = await run(['jobs', 'stats', '--queue', redis.url, '--json']);
      expect(refused.code).toBe(4);
      expect(errorOf(refused).code).toBe('REDIS_UNAVAILABLE');
    });

    it('from --queue-file or OAA_QUEUE_URL: works without a warning; --help names both', async () => {
      const urlFile = await file('queue-url', `${urlWithPassword()}\n`);
      quietSuccess(await run(['jobs', 'stats', '--queue-file', urlFile]));
      quietSuccess(await run(['jobs', 'stats'], { OAA_QUEUE_URL: urlWithPassword() }));
      const help = await run(['jobs', 'stats', '--help']);
      expect(help.stdout).toMatch(/--queue=<value>\s+\[env: OAA_QUEUE_URL\]/);
      expect(help.stdout).toMatch(/--queue-file=PATH\s+file holding the queue URL/);
    });

    it('oaa worker warns about a password in --queue; oaa daemon schedules into the Redis of --queue-file, without a warning', async () => {
      await writeConfig();
      const worker = await startFleetProcess({
        args: ['worker', '--port', '0', '--queue', urlWithPassword()],
        cwd: work.dir,
        env: emulator.env,
        startEvent: 'worker.start',
      });
      processes.push(worker);
      expect(worker.stderr()).toMatch(
        /^warning: --queue puts a password \(in the URL\) on the command line/m,
      );

      const urlFile = await file('queue-url', `${urlWithPassword()}\n`);
      const scheduler = await startFleetProcess({
        args: ['daemon', '--queue-file', urlFile],
        cwd: work.dir,
        env: emulator.env,
        startEvent: 'scheduler.start',
      });
      processes.push(scheduler);
      const stats = await run(['jobs', 'stats', '--queue-file', urlFile, '--json']);
      expect(json<{ schedules: string[] }>(stats).schedules).toEqual(['yearly']);

      for (const p of processes) p.signal('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(await scheduler.exited).toBe(0);
      processes.length = 0;
      expect(scheduler.stderr()).not.toMatch(/^warning:/m);
      for (const p of [worker, scheduler]) expect(p.stderr()).not.toContain(REDIS_PASSWORD);
    });

    it('a missing --queue-file, or a URL it or OAA_QUEUE_URL holds that is not valid: exit 64 naming where the URL came from', async () => {
      const missing = join(work.dir, 'no-such-queue-url');
      const gone = await run(['jobs', 'stats', '--queue-file', missing]);
      expect(gone.code).toBe(64);
      expect(gone.stderr).toContain(`Error: --queue-file: cannot read ${missing}: no such file\n`);

      const malformed = `redis://:hunter%zz22@127.0.0.1:${redis.port}/0`;
      const fromEnv = await run(['jobs', 'stats'], { OAA_QUEUE_URL: malformed });
      expect(fromEnv.code).toBe(64);
      expect(fromEnv.stderr).toMatch(
        /^Error: OAA_QUEUE_URL: the password in the URL is not valid percent-encoding/m,
      );
      const urlFile = await file('malformed-queue-url', `${malformed}\n`);
      const fromFile = await run(['jobs', 'stats', '--queue-file', urlFile, '--json']);
      expect(fromFile.code).toBe(64);
      expect(errorOf(fromFile)).toMatchObject({
        code: 'QUEUE_URL_INVALID',
        message: `--queue-file ${urlFile}: the password in the URL is not valid percent-encoding: each % must start an escape such as %40; write a % itself as %25`,
      });
      for (const res of [fromEnv, fromFile]) expect(res.stdout + res.stderr).not.toContain('hunter');
    });
  },
);
