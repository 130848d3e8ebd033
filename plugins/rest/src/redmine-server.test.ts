/**
 * The Redmine test harness: a throwaway instance answers its REST API as the admin, carries
 * Redmine's default data, keeps its data to itself, and leaves nothing behind when stopped.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from '@oaakit/emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedmine, sweepLeftovers, type RedmineServer } from './testing/redmine-server.js';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

let redmine: RedmineServer;

beforeAll(async () => {
  redmine = await startRedmine();
});
afterAll(async () => {
  await redmine?.stop();
});

describe('a throwaway Redmine', () => {
  it('answers the REST API as the admin, on 127.0.0.1, with the default roles loaded', async () => {
    expect(redmine.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const me = await redmine.request<{ user: { login: string; admin: boolean } }>(
      'GET',
      '/users/current.json',
    );
    expect(me.user).toMatchObject({ login: 'admin', admin: true });
    const { roles } = await redmine.request<{ roles: { name: string }[] }>('GET', '/roles.json');
    expect(roles.map((r) => r.name)).toEqual(['Manager', 'Developer', 'Reporter']);
  });

  it('refuses a request without the key', async () => {
    const res = await fetch(`${redmine.url}/users.json`);
    expect(res.status).toBe(401);
  });

  it('keeps each instance its own: a user made on one is not on another', async () => {
    const other = await startRedmine();
    try {
      await redmine.request('POST', '/users.json', {
        user: {
          login: 'only.here',
          firstname: 'Only',
          lastname: 'Here',
          mail: 'only.here@example.com',
          password: 'only-here-pw-1',
        },
      });
      const here = await redmine.request<{ total_count: number }>('GET', '/users.json?name=only.here');
      const there = await other.request<{ total_count: number }>('GET', '/users.json?name=only.here');
      expect([here.total_count, there.total_count]).toEqual([1, 0]);
      expect(other.url).not.toBe(redmine.url);
    } finally {
      await other.stop();
    }
  });

  it('is gone after stop: its port refuses connections and its instance link is removed', async () => {
    const server = await startRedmine();
    const link = join('/var/lib/redmine', server.dir.slice(tmpdir().length + 1));
    expect(await readlink(link)).toBe(server.dir);
    await server.stop();
    await expect(fetch(`${server.url}/users.json`)).rejects.toThrow();
    expect(await exists(link)).toBe(false);
    expect(await exists(server.dir)).toBe(false);
  });

  it('dies with a test process that is killed, and the next sweep removes what it left', async () => {
    // vite-node (vitest's TypeScript runner) runs the harness in a child process.
    const vitest = createRequire(import.meta.url).resolve('vitest/package.json');
    const viteNode = join(dirname(createRequire(vitest).resolve('vite-node/package.json')), 'vite-node.mjs');
    const script = fileURLToPath(new URL('./private-test-helpers/redmine-until-killed.ts', import.meta.url));
    const child = spawn(process.execPath, [viteNode, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const line = await until('the child to start its Redmine', () => out.includes('\n') && out);
    const { url, dir } = JSON.parse(line) as { url: string; dir: string };
    const link = join('/var/lib/redmine', dir.slice(tmpdir().length + 1));
    expect((await fetch(`${url}/users.json`)).status).toBe(401);
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    // The kernel sent the server SIGKILL when its parent died: its port soon refuses connections.
    await until('the port to refuse connections', () =>
      fetch(`${url}/users.json`).then(
        () => false,
        () => true,
      ),
    );
    const removed = await sweepLeftovers();
    expect(removed).toEqual(expect.arrayContaining([dir, link]));
  });

  it('sweeps what a killed run left (its directory and its instance link), and only that', async () => {
    // A directory marked by a process that has ended, as a killed test run leaves it, with its link.
    const ended = spawn(process.execPath, ['-e', '']);
    await once(ended, 'exit');
    const stale = await mkdtemp(join(tmpdir(), 'oaakit-redmine-'));
    await writeFile(join(stale, 'owner.pid'), `${ended.pid}\n`);
    const staleLink = join('/var/lib/redmine', stale.slice(tmpdir().length + 1));
    await symlink(stale, staleLink);
    // One of a live process (this one), which must stay.
    const live = await mkdtemp(join(tmpdir(), 'oaakit-redmine-'));
    await writeFile(join(live, 'owner.pid'), `${process.pid}\n`);
    try {
      const removed = await sweepLeftovers();
      expect(removed).toEqual(expect.arrayContaining([stale, staleLink]));
      expect(removed).not.toContain(live);
      expect(await exists(live)).toBe(true);
      expect(await exists(staleLink)).toBe(false);
      // The running instance of this file is untouched.
      await expect(redmine.request('GET', '/users/current.json')).resolves.toBeDefined();
    } finally {
      await rm(live, { recursive: true, force: true });
      await rm(staleLink, { force: true });
      await rm(stale, { recursive: true, force: true });
    }
  });
});
