/**
 * The state lock against real files and processes: every kind of stale lock is
 * taken over, a live one never, and of contenders for one stale lock exactly one gets it. Holders in
 * other processes run test-fixtures/lock/hold-lock.js on the built runner (npx tsc -b packages/runner).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rejection } from '../private-test-helpers/rejection.js';
import { acquireLock } from './lock.js';
import type { AcquireLockOptions, HeldLock } from './lock.js';
import { isStale } from './lock-record.js';
import type { LockHolder } from './lock-record.js';
import { currentIdentity } from './process-identity.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = resolve(here, '../../test-fixtures/lock/hold-lock.js');
const dist = resolve(here, '../../dist/index.js');
const self = currentIdentity();

let dir: string;
let path: string;
const held: HeldLock[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oaa-lock-'));
  path = join(dir, 'lock');
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(held.splice(0).map((l) => l.release()));
  await rm(dir, { recursive: true, force: true });
});

async function take(options: AcquireLockOptions = {}): Promise<HeldLock> {
  const lock = await acquireLock(path, options);
  held.push(lock);
  return lock;
}

async function writeLock(record: Partial<LockHolder>): Promise<void> {
  await writeFile(path, JSON.stringify({ since: '2020-01-01T00:00:00.000Z', token: 'theirs', ...record }));
}

/** Sets the lock file's mtime `ms` into the past: a lease or grace period that ran out that long ago. */
async function age(ms: number): Promise<void> {
  const then = new Date(Date.now() - ms);
  await utimes(path, then, then);
}

interface Answer {
  locked: boolean;
  holder?: LockHolder;
  code?: string;
}

/**
 * `unshare` arguments that run a command as pid 1 of a new pid namespace, as in a container (killed
 * with unshare itself); undefined where this machine cannot (no util-linux, no user namespaces).
 */
const CONTAINER = [
  ['--pid', '--fork', '--mount-proc', '--kill-child'],
  ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc', '--kill-child'],
].find((args) => spawnSync('unshare', [...args, 'true']).status === 0);

/**
 * Starts a process that tries to take the lock with this lease, in a pid namespace of its own when
 * `container`; resolves with what it answered.
 */
async function holderProcess(leaseMs: number, container = false) {
  expect(existsSync(dist), 'build the runner first: npx tsc -b packages/runner').toBe(true);
  const command = [process.execPath, fixture, path, String(leaseMs)];
  const child = container
    ? spawn('unshare', [...(CONTAINER ?? []), ...command])
    : spawn(command[0]!, command.slice(1));
  children.push(child);
  const exited = once(child, 'exit');
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { child, exited, answer: JSON.parse(line) as Answer };
}

describe('stale locks are taken over', () => {
  it('takes over an empty lock file (a crash between creating and writing it) after the grace period', async () => {
    await writeFile(path, '');
    const refused = await rejection(acquireLock(path, { graceMs: 60_000 }));
    expect(refused.code).toBe('STATE_LOCKED');
    expect(refused.message).toContain(
      'locked by another run (its lock file is being written, or is unreadable)',
    );

    const lock = await take({ graceMs: 100, waitMs: 20_000, pollMs: 20 });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({
      pid: process.pid,
      token: lock.holder.token,
    });
  });

  it('takes over a torn lock file once it is older than the grace period', async () => {
    await writeFile(path, '{"pid": 4242, "hostn');
    await age(10_000);
    const lock = await take();
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ token: lock.holder.token });
  });

  it.skipIf(self.startTime === undefined)(
    'takes over a lock of this very pid started at another time (a restarted container’s pid 1)',
    async () => {
      await writeLock({ ...self, startTime: String(Number(self.startTime) - 1) });
      const lock = await take();
      expect(lock.holder.pid).toBe(process.pid);
    },
  );

  it.skipIf(self.bootId === undefined)(
    'takes over a lock taken under another boot of this host',
    async () => {
      await writeLock({ ...self, bootId: '00000000-0000-0000-0000-000000000000' });
      expect((await take()).holder.bootId).toBe(self.bootId);
    },
  );

  it('takes over a lock of another host once its lease has run out, not before', async () => {
    await writeLock({ pid: 4242, hostname: 'build-7', leaseMs: 1_000 });
    const refused = await rejection(acquireLock(path));
    expect(refused.message).toContain('locked by pid 4242 on build-7 since 2020-01-01T00:00:00.000Z');
    await age(5_000);
    expect((await take()).holder.hostname).toBe(self.hostname);
  });

  it('takes over the lock of a holder killed with SIGKILL', async () => {
    const holder = await holderProcess(300);
    expect(holder.answer.locked).toBe(true);
    expect((await rejection(acquireLock(path))).code).toBe('STATE_LOCKED');
    holder.child.kill('SIGKILL');
    await holder.exited;
    const lock = await take({ waitMs: 20_000, pollMs: 20 });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ token: lock.holder.token });
  });

  it.skipIf(CONTAINER === undefined)(
    'takes over the lock of a container’s pid 1 killed with SIGKILL once its lease runs out, not while it refreshes it',
    async () => {
      // Its pid means nothing outside its namespace: only the lease tells whether it lives.
      const leaseMs = 3_000;
      const holder = await holderProcess(leaseMs, true);
      expect(holder.answer).toMatchObject({ locked: true, holder: { pid: 1 } });
      const taken = (await stat(path)).mtimeMs;
      await vi.waitFor(async () => expect((await stat(path)).mtimeMs).toBeGreaterThan(taken + leaseMs), {
        timeout: 20_000,
        interval: 50,
      });
      expect((await rejection(acquireLock(path))).message).toContain(`locked by pid 1 on ${hostname()}`);

      holder.child.kill('SIGKILL');
      await holder.exited;
      const lock = await take({ waitMs: 25_000, pollMs: 50 });
      expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ token: lock.holder.token });
    },
  );
});

describe('live locks are kept', () => {
  it('refuses while another process holds the lock and refreshes its lease, and names it', async () => {
    const leaseMs = 200;
    const holder = await holderProcess(leaseMs);
    expect(holder.answer.locked).toBe(true);
    const taken = (await stat(path)).mtimeMs;
    // The holder has outlived several leases, refreshing the file all along.
    await vi.waitFor(async () => expect((await stat(path)).mtimeMs).toBeGreaterThan(taken + 4 * leaseMs), {
      timeout: 20_000,
      interval: 20,
    });
    const refused = await rejection(acquireLock(path, { leaseMs }));
    expect(refused.code).toBe('STATE_LOCKED');
    expect(refused.message).toContain(`locked by pid ${holder.child.pid} on ${hostname()} since `);
    expect(refused.message).toContain('(hold-lock fixture)');

    holder.child.stdin.end();
    await holder.exited;
    expect(existsSync(path)).toBe(false);
  });

  it('gives a stale lock to exactly one of several processes racing for it', async () => {
    await writeFile(path, '');
    await age(60_000);
    const racers = await Promise.all([1, 2, 3].map(() => holderProcess(30_000)));
    const answers = racers.map((r) => r.answer);
    expect(answers.filter((a) => a.locked)).toHaveLength(1);
    expect(answers.filter((a) => !a.locked).map((a) => a.code)).toEqual(['STATE_LOCKED', 'STATE_LOCKED']);
    const winner = answers.find((a) => a.locked)!;
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ token: winner.holder!.token });
  });

  it('gives a stale lock to exactly one of several contenders in one process', async () => {
    await writeLock({ pid: 4242, hostname: 'build-7', leaseMs: 1_000 });
    await age(5_000);
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map(() => take()));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes)
      if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'STATE_LOCKED' });
  });

  it('releases only its own lock, not one that replaced it', async () => {
    const lock = await take();
    const theirs = join(dir, 'theirs');
    await writeFile(theirs, JSON.stringify({ pid: 4242, hostname: 'build-7', since: 'now', token: 'x' }));
    await rename(theirs, path);
    await lock.release();
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ token: 'x' });
  });
});

describe('when a lock is stale', () => {
  const check = { self, status: () => ({ alive: true }), defaultLeaseMs: 30_000, graceMs: 5_000 };
  const other = { pid: 7, hostname: self.hostname, since: 'x', leaseMs: 1_000 };

  it('goes by the lease where the holder cannot be checked: another host or pid namespace', () => {
    for (const holder of [
      { ...other, hostname: 'build-7' },
      { ...other, pidNamespace: 'pid:[1]' },
    ]) {
      expect(isStale({ ...check, holder, ageMs: 900 })).toBe(false);
      expect(isStale({ ...check, holder, ageMs: 1_100 })).toBe(true);
    }
  });

  it('keeps a live local holder whose heartbeat is late, and drops a dead one at once', () => {
    const holder = { ...other, startTime: '99' };
    const status = { alive: true, startTime: '99' };
    expect(isStale({ ...check, status: () => status, holder, ageMs: 60_000 })).toBe(false);
    expect(isStale({ ...check, status: () => ({ alive: false }), holder, ageMs: 0 })).toBe(true);
  });
});
