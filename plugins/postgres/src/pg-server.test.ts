import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTemplate,
  startPgServer,
  sweepLeftovers,
  type PgServer,
  type PgTemplate,
} from './private-test-helpers/pg-server.js';

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
