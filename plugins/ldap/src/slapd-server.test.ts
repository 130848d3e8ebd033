import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from '@oaakit/emulator/testing';
import { Client, InvalidCredentialsError, NoSuchObjectError } from 'ldapts';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFixtureDirectory } from './private-test-helpers/fixture-directory.js';
import {
  READER_DN,
  startSlapd,
  sweepLeftovers,
  type SlapdServer,
} from './private-test-helpers/slapd-server.js';

const started: SlapdServer[] = [];
afterAll(async () => {
  for (const server of started) await server.stop();
});

async function start(...args: Parameters<typeof startSlapd>): Promise<SlapdServer> {
  const server = await startSlapd(...args);
  started.push(server);
  return server;
}

async function refused(url: string): Promise<boolean> {
  const client = new Client({ url, timeout: 10_000 });
  try {
    await client.search('', { scope: 'base' });
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

describe('the throwaway OpenLDAP server of the tests', () => {
  it('serves the fixture directory on 127.0.0.1 over ldap://, StartTLS and ldaps://', async () => {
    const server = await start();
    const fixtures = await loadFixtureDirectory(server);
    const ca = await readFile(server.caFile, 'utf8');
    for (const how of ['ldap', 'starttls', 'ldaps'] as const) {
      // ldapts makes a connection TLS from the start when it is given TLS options.
      const client = new Client(
        how === 'ldaps' ? { url: server.ldapsUrl, tlsOptions: { ca } } : { url: server.url },
      );
      try {
        if (how === 'starttls') await client.startTLS({ ca, host: '127.0.0.1' });
        await client.bind(READER_DN, fixtures.readerPassword);
        const { searchEntries } = await client.search('ou=people,dc=corp,dc=example', {
          filter: '(uid=mokafor)',
          attributes: ['cn'],
        });
        expect(searchEntries.map((e) => e.cn)).toEqual(['Maria Okafor']);
      } finally {
        await client.unbind();
      }
    }
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
  });

  it('keeps userPassword unreadable, also to the bind account, and lets users bind with theirs', async () => {
    const server = await start();
    const fixtures = await loadFixtureDirectory(server);
    const dn = 'uid=dreyes,ou=people,dc=corp,dc=example';
    const reader = server.client();
    try {
      await reader.bind(READER_DN, fixtures.readerPassword);
      const { searchEntries } = await reader.search(dn, {
        scope: 'base',
        attributes: ['userPassword', 'uid'],
      });
      expect(searchEntries[0]).toEqual({ dn, uid: 'dreyes', userPassword: [] });
    } finally {
      await reader.unbind();
    }
    const user = server.client();
    try {
      await user.bind(dn, fixtures.passwords.get(dn));
      await expect(user.bind(dn, 'not-the-password')).rejects.toBeInstanceOf(InvalidCredentialsError);
    } finally {
      await user.unbind();
    }
  });

  it('gives a second server its own ports and its own data', async () => {
    const [a, b] = [await start(), await start()];
    expect(a.url).not.toBe(b.url);
    await a.ldapAdd(
      'dn: dc=corp,dc=example\nobjectClass: dcObject\nobjectClass: organization\ndc: corp\no: A\n',
    );
    const admin = await b.adminClient();
    try {
      await expect(admin.search('dc=corp,dc=example', { scope: 'base' })).rejects.toBeInstanceOf(
        NoSuchObjectError,
      );
    } finally {
      await admin.unbind();
    }
  });

  it('is gone after stop: its port refuses connections', async () => {
    const server = await startSlapd();
    await server.stop();
    expect(await refused(server.url)).toBe(true);
  });

  it('dies with a test process that is killed, and the next sweep removes its directory', async () => {
    // vite-node (vitest's TypeScript runner) runs the harness in a child process.
    const vitest = createRequire(import.meta.url).resolve('vitest/package.json');
    const viteNode = join(dirname(createRequire(vitest).resolve('vite-node/package.json')), 'vite-node.mjs');
    const script = fileURLToPath(new URL('./private-test-helpers/serve-until-killed.ts', import.meta.url));
    const child = spawn(process.execPath, [viteNode, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const line = await until('the child to start its server', () => out.includes('\n') && out);
    const { url, dir } = JSON.parse(line) as { url: string; dir: string };
    expect(await refused(url)).toBe(false);
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    // slapd got SIGTERM from the kernel when its parent died; it closes its listeners as it stops.
    await until('the port to refuse connections', () => refused(url));
    expect(await sweepLeftovers()).toContain(dir);
  });

  it('sweeps the directories of a killed run, and only those', async () => {
    const ended = spawn(process.execPath, ['-e', '']);
    await once(ended, 'exit');
    const stale = await mkdtemp(join(tmpdir(), 'oaakit-slapd-'));
    await writeFile(join(stale, 'owner.pid'), `${ended.pid}\n`);
    const live = await mkdtemp(join(tmpdir(), 'oaakit-slapd-'));
    await writeFile(join(live, 'owner.pid'), `${process.pid}\n`);
    const unmarked = await mkdtemp(join(tmpdir(), 'oaakit-slapd-'));
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
