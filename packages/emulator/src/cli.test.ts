import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCliArgs, runCli } from './cli.js';
import { Database } from './db/sqlite.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) } };
}

describe('oaa-emulator command line', () => {
  it('parses the flags', () => {
    expect(
      parseCliArgs([
        '--port',
        '8080',
        '--host',
        '0.0.0.0',
        '--tls',
        '--db',
        'x.db',
        '--api-key',
        'k1',
        '--api-key',
        'k2',
      ]),
    ).toEqual({
      options: {
        port: 8080,
        host: '0.0.0.0',
        tls: true,
        dbPath: 'x.db',
        apiKeys: [
          { key: 'k1', role: 'admin' },
          { key: 'k2', role: 'admin' },
        ],
      },
      quiet: false,
    });
    expect(parseCliArgs([])).toEqual({ options: { port: 0 }, quiet: false });
    expect(parseCliArgs(['--quiet'])).toEqual({ options: { port: 0 }, quiet: true });
    expect(parseCliArgs(['--port', 'http'])).toEqual({ error: '--port must be a port number, not http' });
    expect(parseCliArgs(['--frobnicate'])).toHaveProperty('error');
  });

  it('prints one line with the URL and the generated key, and serves', async () => {
    const c = capture();
    const result = await runCli([], c.io);
    if (!('emulator' in result)) throw new Error('not started');
    try {
      expect(c.out).toHaveLength(1);
      expect(c.out[0]).toMatch(
        /^oaa-emulator listening on http:\/\/127\.0\.0\.1:\d+ \(admin API key: oaa_emu_\S+\)\n$/,
      );
      const key = /admin API key: (\S+)\)/.exec(c.out[0]!)![1]!;
      const r = await fetch(`${result.emulator.url}/api/v1/providers/custom/templates`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(r.status).toBe(200);
    } finally {
      await result.emulator.close();
    }
  });

  it('does not print a key it was given', async () => {
    const c = capture();
    const result = await runCli(['--api-key', 'given-key-123'], c.io);
    if (!('emulator' in result)) throw new Error('not started');
    await result.emulator.close();
    expect(c.out.join('')).not.toContain('given-key-123');
    expect(c.out.join('')).not.toContain('admin API key');
  });

  it('prints usage on a bad flag with exit code 2', async () => {
    const c = capture();
    expect(await runCli(['--port', '-1'], c.io)).toEqual({ exitCode: 2 });
    expect(c.err.join('')).toContain('usage: oaa-emulator');
  });

  it('logs an unexpected error to stderr with its cause, and nothing with --quiet', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oaa-emulator-cli-'));
    const key = 'oaa-emulator-cli-test-key';
    try {
      for (const quiet of [false, true]) {
        const c = capture();
        const db = join(dir, `${quiet}.db`);
        const result = await runCli(['--db', db, '--api-key', key, ...(quiet ? ['--quiet'] : [])], c.io);
        if (!('emulator' in result)) throw new Error('not started');
        try {
          // Another program changes the database under the running emulator: its storage really fails.
          const other = new Database(db);
          other.exec('ALTER TABLE providers RENAME TO providers_moved');
          other.close();
          const res = await fetch(`${result.emulator.url}/api/v1/providers/custom`, {
            headers: { authorization: `Bearer ${key}` },
          });
          expect(res.status).toBe(500);
        } finally {
          await result.emulator.close();
        }
        if (quiet) {
          expect(c.err).toEqual([]);
          continue;
        }
        const records = c.err.map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(records).toEqual([
          expect.objectContaining({
            level: 50,
            msg: 'unexpected error',
            method: 'GET',
            path: '/api/v1/providers/custom',
            err: expect.objectContaining({ code: 'SQLITE_ERROR', message: 'no such table: providers' }),
          }),
        ]);
        expect(c.err.join('')).not.toContain(key);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
