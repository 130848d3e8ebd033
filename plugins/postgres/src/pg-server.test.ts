import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from '@oaakit/emulator/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTemplate,
  startPgServer,
  sweepLeftovers,
  type PgServer,
  type PgTemplate,
} from './testing/index.js';

let template: PgTemplate;
const started: PgServer[] = [];

beforeAll(async () => {
  template = await createTemplate();
});
afterAll(async () => {
  for (const server of started) await server.stop();
  await template.remove();
});

async function start(): Promise<PgServer> {
  const server = await startPgServer(template);
  started.push(server);
  return server;
}

describe('the throwaway PostgreSQL server of the tests', () => {
  it('serves a plain LOGIN role over TCP on 127.0.0.1, with UTF8 and scram passwords', async () => {
    const server = await start();
    const admin = await server.connectAsSuperuser();
    await admin.query(`CREATE ROLE plain_login LOGIN PASSWORD 'pw-for-test'`);
    await admin.end();

    const client = new pg.Client({
      host: server.host,
      port: server.port,
      user: 'plain_login',
      password: 'pw-for-test',
      database: 'postgres',
    });
    await client.connect();
    const { rows } = await client.query<{ me: string; encoding: string; superuser: string }>(
      `SELECT current_user AS me, pg_encoding_to_char(encoding) AS encoding,
              current_setting('is_superuser') AS superuser
         FROM pg_database WHERE datname = current_database()`,
    );
    await client.end();
    expect(rows).toEqual([{ me: 'plain_login', encoding: 'UTF8', superuser: 'off' }]);

    const wrong = new pg.Client({
      host: server.host,
      port: server.port,
      user: 'plain_login',
      password: 'not-the-password',
      database: 'postgres',
    });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
  });

  it('gives a second server of the same file its own port and its own data', async () => {
    const [a, b] = [await start(), await start()];
    expect(a.port).not.toBe(b.port);
    const ca = await a.connectAsSuperuser();
    await ca.query('CREATE DATABASE only_on_a');
    await ca.end();
    const cb = await b.connectAsSuperuser();
    const { rows } = await cb.query(`SELECT 1 FROM pg_database WHERE datname = 'only_on_a'`);
    await cb.end();
    expect(rows).toEqual([]);
  });

  it('is gone after stop: its port refuses connections', async () => {
    const server = await startPgServer(template);
    await server.stop();
    const client = new pg.Client({ host: server.host, port: server.port, user: 'postgres', password: 'x' });
    await expect(client.connect()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('dies with a test process that is killed, and the next sweep removes its directory', async () => {
    // vite-node (vitest's TypeScript runner) runs the harness in a child process.
    const vitest = createRequire(import.meta.url).resolve('vitest/package.json');
    const viteNode = join(dirname(createRequire(vitest).resolve('vite-node/package.json')), 'vite-node.mjs');
    const script = fileURLToPath(new URL('./private-test-helpers/serve-until-killed.ts', import.meta.url));
    const child = spawn(process.execPath, [viteNode, script], {
      env: {
        ...process.env,
        OAAKIT_PG_TEMPLATE: JSON.stringify({
          superuserPassword: template.superuserPassword,
          dataDir: template.dataDir,
          bin: template.bin,
        }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const line = await until('the child to start its server', () => out.includes('\n') && out);
    const { port, dir } = JSON.parse(line) as { port: number; dir: string };
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: template.superuserPassword,
    });
    await client.connect();
    // The session is cut (an 'error', then 'end'), which is the point.
    client.on('error', () => undefined);
    const ended = new Promise((resolve) => client.once('end', resolve));
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    // The server got SIGQUIT from the kernel when its parent died: the open session ends.
    await ended;
    // The postmaster closes its listening socket last, as it finishes exiting.
    await until('the port to refuse connections', async () => {
      const probe = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'x' });
      probe.on('error', () => undefined);
      const error = await probe.connect().then(
        () => probe.end().then(() => undefined),
        (e: unknown) => e,
      );
      return (error as { code?: string } | undefined)?.code === 'ECONNREFUSED';
    });
    expect(await sweepLeftovers()).toContain(dir);
  });

  it('sweeps the directories of a killed run, and only those', async () => {
    // A directory marked by a process that has ended, as a killed test run leaves it.
    const ended = spawn(process.execPath, ['-e', '']);
    await once(ended, 'exit');
    const stale = await mkdtemp(join(tmpdir(), 'oaakit-pg-'));
    await writeFile(join(stale, 'owner.pid'), `${ended.pid}\n`);
    // One marked by a live process, and one with the prefix but without a mark, are left alone.
    const live = await mkdtemp(join(tmpdir(), 'oaakit-pg-'));
    await writeFile(join(live, 'owner.pid'), `${process.pid}\n`);
    const unmarked = await mkdtemp(join(tmpdir(), 'oaakit-pg-'));
    try {
      const removed = await sweepLeftovers();
      expect(removed).toContain(stale);
      expect(removed).not.toContain(live);
      await expect(access(stale)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await readdir(tmpdir())).toEqual(
        expect.arrayContaining([live.split('/').pop(), unmarked.split('/').pop()]),
      );
    } finally {
      await rm(live, { recursive: true, force: true });
      await rm(unmarked, { recursive: true, force: true });
    }
  });
});
