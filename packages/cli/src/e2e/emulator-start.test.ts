/** `oaa emulator start`: one line with a URL that answers, and a clean stop on SIGTERM or Ctrl-C. */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '@oaakit/client';
import { json, oaa, spawnOaa, tempDir } from '../private-test-helpers/run-oaa.js';

let work: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  work = await tempDir('oaa-cli-emulator-');
});

afterAll(async () => {
  await work.remove();
});

/** Starts `oaa emulator start ...args`, waits for its line, and returns the process and that line. */
async function start(args: string[]) {
  const child = spawnOaa(['emulator', 'start', ...args], { cwd: work.dir });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    exited.then(() => Promise.reject(new Error(`exited early: ${stderr}`))),
  ])) as [string];
  return { child, line, exited, stderr: () => stderr };
}

/**
 * Another program changes the emulator's database under it (a second SQLite client, with the
 * emulator's own binding), so its storage really fails from then on.
 */
function moveProvidersTable(db: string): void {
  const emulatorDir = dirname(createRequire(import.meta.url).resolve('@oaakit/emulator/package.json'));
  const binding =
    Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
  const script = `const Database = require(${JSON.stringify(binding)});
    const db = new Database(process.argv[1]);
    db.exec('ALTER TABLE providers RENAME TO providers_moved');
    db.close();`;
  const moved = spawnSync(process.execPath, ['-e', script, db], { cwd: emulatorDir, encoding: 'utf8' });
  expect(moved.status, moved.stderr).toBe(0);
}

describe('oaa emulator start', () => {
  it('prints its URL and a generated key, answers, and stops cleanly on SIGTERM', async () => {
    const emu = await start([]);
    const match = /^oaa emulator listening on (http:\/\/127\.0\.0\.1:\d+) \(admin API key: (\S+)\)$/.exec(
      emu.line,
    );
    expect(match).not.toBeNull();
    const [, url, key] = match!;
    const res = await fetch(`${url}/api/v1/providers/custom`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    emu.child.kill('SIGTERM');
    const [code] = await emu.exited;
    expect(code).toBe(0);
    await expect(fetch(`${url}/api/v1/providers/custom`)).rejects.toThrow();
  });

  it('keeps its state in --db across restarts, with the --api-key given, and stops on Ctrl-C', async () => {
    const db = join(work.dir, 'emu.db');
    const key = 'local-dev-key-123';
    const first = await start(['--db', db, '--api-key', key, '--json']);
    const { url } = JSON.parse(first.line) as { url: string; adminKey: string | null };
    expect(JSON.parse(first.line)).toMatchObject({ adminKey: null, tls: false });
    const created = await oaa(
      ['providers', 'create', 'Kept', '--template', 'application', '--url', url, '--api-key', key],
      { cwd: work.dir },
    );
    expect(created.code).toBe(0);
    first.child.kill('SIGINT');
    expect((await first.exited)[0]).toBe(0);

    const second = await start(['--db', db, '--api-key', key]);
    expect(second.line).toMatch(/^oaa emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url2 = second.line.split(' ').pop()!;
    const listed = await oaa(['providers', 'list', '--json', '--url', url2, '--api-key', key], {
      cwd: work.dir,
    });
    expect(json<Provider[]>(listed).map((p) => p.name)).toEqual(['Kept']);
    second.child.kill('SIGTERM');
    expect((await second.exited)[0]).toBe(0);
  });

  it('rejects a bad port as a usage error', async () => {
    const res = await oaa(['emulator', 'start', '--port', '70000'], { cwd: work.dir });
    expect(res.code).toBe(64);
    expect(res.stderr).toMatch(/^Error: .*70000/m);
  });

  it('logs an error answered with 500 to stderr with its cause, and nothing with --quiet', async () => {
    const key = 'local-dev-key-logged';
    for (const quiet of [false, true]) {
      const db = join(work.dir, `logged-${quiet}.db`);
      const emu = await start(['--db', db, '--api-key', key, '--json', ...(quiet ? ['--quiet'] : [])]);
      const { url } = JSON.parse(emu.line) as { url: string };
      moveProvidersTable(db);
      const res = await fetch(`${url}/api/v1/providers/custom`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(500);
      emu.child.kill('SIGTERM');
      expect((await emu.exited)[0]).toBe(0);

      const records = emu
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      if (quiet) {
        expect(records).toEqual([]);
        continue;
      }
      expect(records).toEqual([
        expect.objectContaining({
          level: 50,
          msg: 'unexpected error',
          path: '/api/v1/providers/custom',
          err: expect.objectContaining({ code: 'SQLITE_ERROR', message: 'no such table: providers' }),
        }),
      ]);
      expect(emu.stderr()).not.toContain(key);
    }
  });
});
