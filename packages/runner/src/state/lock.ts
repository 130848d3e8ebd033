/**
 * One lock per data source: an exclusive lock file holding the holder's pid, host and start time.
 * A lock whose process is gone (same host, pid not alive) is stale and taken over.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES } from '../codes.js';
import { tempPathFor } from './atomic-write.js';

/** Who holds a lock. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  since: string;
  /** What took it, e.g. the connector id. */
  owner?: string;
  /** Tells two locks of one process apart. */
  token?: string;
}

/** A held lock. */
export interface HeldLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Releases the lock; safe to call twice. */
  release(): Promise<void>;
}

/** Options of {@link acquireLock}. */
export interface AcquireLockOptions {
  /** How long to wait for a held lock before refusing; default 0 (refuse at once). */
  waitMs?: number;
  /** Delay between attempts while waiting; default 200 ms. */
  pollMs?: number;
  /** Recorded in the lock file and named in refusals. */
  owner?: string;
  /** What the lock protects, for messages; default the lock path. */
  subject?: string;
  signal?: AbortSignal;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string') return undefined;
    return {
      pid: parsed.pid,
      hostname: parsed.hostname,
      since: String(parsed.since),
      ...(parsed.owner ? { owner: parsed.owner } : {}),
      ...(parsed.token ? { token: parsed.token } : {}),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // A lock file being written right now, or garbage: treat as held and unknown.
    return { pid: -1, hostname: 'unknown', since: 'unknown' };
  }
}

function isStale(holder: LockHolder): boolean {
  return holder.hostname === hostname() && holder.pid > 0 && !isAlive(holder.pid);
}

async function tryCreate(path: string, holder: LockHolder): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(holder));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Moves a stale lock aside, so of two processes breaking it at once only one succeeds. */
async function breakStale(path: string, seen: LockHolder): Promise<void> {
  const aside = tempPathFor(`${path}.stale`);
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readHolder(aside);
  if (moved !== undefined && (moved.pid !== seen.pid || moved.token !== seen.token)) {
    // Someone took the lock between our read and the rename: give it back.
    await rename(aside, path).catch(() => undefined);
    return;
  }
  await rm(aside, { force: true });
}

function lockedError(subject: string, path: string, holder: LockHolder): OaaError {
  const who =
    holder.pid === -1
      ? 'another run'
      : `pid ${holder.pid} on ${holder.hostname} since ${holder.since}${holder.owner ? ` (${holder.owner})` : ''}`;
  return new OaaError(`${subject} is locked by ${who}`, {
    code: RUNNER_ERROR_CODES.STATE_LOCKED,
    retryable: true,
    details: { lockFile: path, holder },
    hints: [
      'wait for the other run to finish, or let this run wait for it',
      `if no such run exists (e.g. it ran on another machine that crashed), delete ${path}`,
    ],
  });
}

/**
 * Takes the lock file at `path`, waiting up to `waitMs` while another live process holds it.
 * Throws `STATE_LOCKED` naming the holder when it stays held.
 */
export async function acquireLock(path: string, options: AcquireLockOptions = {}): Promise<HeldLock> {
  const holder: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    since: new Date().toISOString(),
    ...(options.owner ? { owner: options.owner } : {}),
    token: randomBytes(8).toString('hex'),
  };
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    options.signal?.throwIfAborted();
    if (await tryCreate(path, holder)) break;
    const current = await readHolder(path);
    if (current === undefined) continue;
    if (isStale(current)) {
      await breakStale(path, current);
      continue;
    }
    if (Date.now() >= deadline) throw lockedError(options.subject ?? path, path, current);
    await sleep(
      Math.min(options.pollMs ?? 200, Math.max(1, deadline - Date.now())),
      undefined,
      options.signal ? { signal: options.signal } : {},
    );
  }
  let released = false;
  return {
    path,
    holder,
    async release() {
      if (released) return;
      released = true;
      const current = await readHolder(path);
      if (current?.token === holder.token) await rm(path, { force: true });
    },
  };
}
